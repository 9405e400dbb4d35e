import type { BillingAccount } from "../../../core/billing/account.ts";
import type { BillingOffer, Contract } from "../../../core/billing/offer-model.ts";
import type { GrantDue } from "../../../core/billing/ports.ts";

/** The in-memory tables of billing (the adapter's composition shares one object of every module's tables). */
export class BillingTables {
  /** `${workspace_id}:${kind}` → the counter (seeded from the items the first time it is touched) */
  planUsage = new Map<string, number>();
  /** workspace_id → its billing account */
  billingAccounts = new Map<string, BillingAccount>();
  /** offer id → offer */
  offers = new Map<string, BillingOffer>();
  /** workspace id → its contract */
  contracts = new Map<string, Contract>();
  /** ids of accepted offers whose effects are not settled */
  offerEffectsPending = new Set<string>();
  /** workspace id → its contract's next included grant */
  grantDues = new Map<string, GrantDue>();
}
