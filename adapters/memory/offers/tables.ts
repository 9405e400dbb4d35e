import type { BillingOffer, Contract, GrantDue } from "../../../core/offers/mod.ts";

/** The in-memory tables of offers (the adapter's composition shares one object of every module's tables). */
export class OfferTables {
  /** offer id → offer */
  offers = new Map<string, BillingOffer>();
  /** workspace id → its contract */
  contracts = new Map<string, Contract>();
  /** ids of accepted offers whose effects are not settled */
  offerEffectsPending = new Set<string>();
  /** workspace id → its contract's next included grant */
  grantDues = new Map<string, GrantDue>();
}
