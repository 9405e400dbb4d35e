import type { BillingAccount } from "../../../core/billing/account.ts";
import { BILLING_KINDS } from "../../../core/billing/transfer.ts";
import type { TransferKind } from "../../../core/kernel/store-transfer.ts";
import type { SqlDriver } from "../driver.ts";
import { plainColumns, sqlKind } from "../transfer-kind.ts";
import { COLUMNS, toAccount } from "./billing-account-store.ts";

/** Billing's kinds over `billing_accounts` (migration 017); `plan_usage` is derived, not moved (ADR 073). */
export function sqlBillingTransfer(db: SqlDriver): TransferKind[] {
  return [
    sqlKind<BillingAccount>(db, {
      spec: BILLING_KINDS.accounts,
      table: "billing_accounts",
      select: COLUMNS.split(", ").map((c) => `t.${c}`).join(", "),
      toDoc: toAccount,
      keyColumns: [{ name: "workspace_id", text: false }],
      columns: plainColumns<BillingAccount>(...(COLUMNS.split(", ") as (keyof BillingAccount & string)[])),
    }),
  ];
}
