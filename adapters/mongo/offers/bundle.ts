import type { OfferStores } from "../../../core/offers/ports.ts";
import { deleteWorkspaceDocs, type MongoBundle } from "../bundle.ts";
import type { OfferCollections } from "./collections.ts";
import { MongoContractStore, MongoOfferStore } from "./offer-store.ts";
import { mongoOfferTransfer } from "./transfer.ts";

export function mongoOfferBundle(c: OfferCollections): MongoBundle<OfferStores> {
  return {
    transfer: mongoOfferTransfer(c),
    stores: { offers: new MongoOfferStore(c), contracts: new MongoContractStore(c) },
    purgeWorkspace: (id) => deleteWorkspaceDocs(id, c.offers, c.offerClosures, c.contracts, c.grantDues),
  };
}
