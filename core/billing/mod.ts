/**
 * Billing: the plan catalogue and limits (plans.ts), billing periods (period.ts), exact usage and
 * the plan-limits gate (usage.ts, gate.ts; docs/decisions/031-plan-limits.md), included credits
 * (included-credits.ts), the billing account, the payment provider, checkout and the billing
 * webhook (ADR 033). Offers and the contracts they make are a room of their own (core/offers/,
 * ADR 061); billing reads a contract's terms through its `ContractTermsReader` port. Public
 * surface of the module.
 */
export * from "./plans.ts";
export * from "./period.ts";
export * from "./ports.ts";
export * from "./account.ts";
export * from "./dto.ts";
export * from "./gate.ts";
export * from "./usage.ts";
export { isIncludedKey, type PeriodCredits, periodCredits } from "./ledger-period.ts";
export { grantIncludedCredits, type IncludedGrant, PLAN_SOURCES, type PlanSource } from "./included-credits.ts";
export { createCheckoutSession, createPortalSession, purchaseOf } from "./checkout.ts";
export * from "./webhook.ts";
