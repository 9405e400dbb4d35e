import type { CreditStores } from "../../../core/credits/ports.ts";
import { deleteWorkspaceDocs, type MongoBundle } from "../bundle.ts";
import type { CreditCollections } from "./collections.ts";
import { MongoCreditLedgerStore } from "./credit-ledger-store.ts";
import { MongoIdempotencyStore } from "./idempotency-store.ts";

export function mongoCreditBundle(c: CreditCollections): MongoBundle<CreditStores> {
  return {
    stores: { creditLedger: new MongoCreditLedgerStore(c), idempotency: new MongoIdempotencyStore(c) },
    purgeWorkspace: (id) => deleteWorkspaceDocs(id, c.creditEntries, c.idempotencyKeys),
  };
}
