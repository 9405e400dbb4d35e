import type { BillingAccount } from "../../../core/billing/account.ts";
import { BILLING_KINDS } from "../../../core/billing/transfer.ts";
import type { TransferKind } from "../../../core/kernel/store-transfer.ts";
import { memoryKind } from "../transfer-kind.ts";
import type { BillingTables } from "./tables.ts";

/** Billing's kinds on the memory adapter (plan usage counters are derived: not moved, ADR 073). */
export function memoryBillingTransfer(t: BillingTables): TransferKind[] {
  return [
    memoryKind<BillingAccount>({
      spec: BILLING_KINDS.accounts,
      docs: () => [...t.billingAccounts.values()],
      has: (d) => t.billingAccounts.has(d.workspace_id),
      put: (d) => void t.billingAccounts.set(d.workspace_id, d),
    }),
  ];
}
