import type { BillingAccount } from "../../../core/billing/account.ts";

/** The in-memory tables of billing (the adapter's composition shares one object of every module's tables). */
export class BillingTables {
  /** `${workspace_id}:${kind}` → the counter (seeded from the items the first time it is touched) */
  planUsage = new Map<string, number>();
  /** workspace_id → its billing account */
  billingAccounts = new Map<string, BillingAccount>();
}
