import type { CreditStores } from "../../../core/credits/ports.ts";
import { dropWorkspaceRows, type MemoryBundle } from "../bundle.ts";
import { MemoryCreditLedgerStore } from "./credit-ledger-store.ts";
import { MemoryIdempotencyStore } from "./idempotency-store.ts";
import type { CreditTables } from "./tables.ts";
import { memoryCreditTransfer } from "./transfer.ts";

export function memoryCreditBundle(t: CreditTables): MemoryBundle<CreditStores> {
  return {
    stores: { creditLedger: new MemoryCreditLedgerStore(t), idempotency: new MemoryIdempotencyStore(t) },
    transfer: memoryCreditTransfer(t),
    purgeWorkspace: (id) => {
      t.ledgers.delete(id);
      t.importedLedgers.delete(id);
      dropWorkspaceRows(id, t.idempotency);
    },
  };
}
