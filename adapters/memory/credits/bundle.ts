import type { CreditStores } from "../../../core/credits/ports.ts";
import { dropWorkspaceRows, type MemoryBundle } from "../bundle.ts";
import { MemoryCreditLedgerStore } from "./credit-ledger-store.ts";
import { MemoryIdempotencyStore } from "./idempotency-store.ts";
import type { CreditTables } from "./tables.ts";

export function memoryCreditBundle(t: CreditTables): MemoryBundle<CreditStores> {
  return {
    stores: { creditLedger: new MemoryCreditLedgerStore(t), idempotency: new MemoryIdempotencyStore(t) },
    purgeWorkspace: (id) => {
      t.ledgers.delete(id);
      dropWorkspaceRows(id, t.idempotency);
    },
  };
}
