import type { CreditStores } from "../../../core/credits/ports.ts";
import { deleteWorkspaceDocs, type MongoBundle } from "../bundle.ts";
import type { CreditCollections } from "./collections.ts";
import { MongoCreditLedgerStore } from "./credit-ledger-store.ts";
import { MongoIdempotencyStore } from "./idempotency-store.ts";
import { mongoCreditTransfer } from "./transfer.ts";

export function mongoCreditBundle(c: CreditCollections): MongoBundle<CreditStores & { creditLedger: MongoCreditLedgerStore }> {
  const creditLedger = new MongoCreditLedgerStore(c);
  return {
    stores: { creditLedger, idempotency: new MongoIdempotencyStore(c) },
    transfer: mongoCreditTransfer(c),
    purgeWorkspace: async (id) => {
      creditLedger.forget(id);
      await deleteWorkspaceDocs(id, c.creditEntries, c.idempotencyKeys, c.importedCreditEntries);
      creditLedger.forget(id);
    },
  };
}
