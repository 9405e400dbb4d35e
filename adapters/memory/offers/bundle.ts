import type { OfferStores } from "../../../core/offers/ports.ts";
import type { MemoryBundle } from "../bundle.ts";
import { MemoryContractStore, MemoryOfferStore } from "./offer-store.ts";
import type { OfferTables } from "./tables.ts";
import { memoryOfferTransfer } from "./transfer.ts";

export function memoryOfferBundle(t: OfferTables): MemoryBundle<OfferStores> {
  return {
    transfer: memoryOfferTransfer(t),
    stores: { offers: new MemoryOfferStore(t), contracts: new MemoryContractStore(t) },
    purgeWorkspace: (id) => {
      for (const [offerId, o] of t.offers) {
        if (o.workspace_id !== id) continue;
        t.offers.delete(offerId);
        t.offerEffectsPending.delete(offerId);
      }
      t.contracts.delete(id);
      t.grantDues.delete(id);
    },
  };
}
