/**
 * Billing (issue #15): the plan catalogue and limits (plans.ts), billing periods (period.ts),
 * exact usage and the plan-limits gate (usage.ts, gate.ts; docs/decisions/031-plan-limits.md),
 * and included credits (included-credits.ts); offers and contracts (offer-model.ts, offers.ts,
 * contracts.ts, platform.ts; docs/decisions/034-offers-and-enterprise.md); included credits at each
 * later period start and the recovery of accepted offers' effects (jobs.ts, included-schedule.ts,
 * sweep.ts; docs/decisions/043-billing-schedules-and-offer-effects.md). Public surface of the module.
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
export * from "./offer-model.ts";
export * from "./offer-dto.ts";
export * from "./policy.ts";
export * from "./offers.ts";
export * from "./contracts.ts";
export * from "./platform.ts";
export * from "./jobs.ts";
export * from "./included-schedule.ts";
export * from "./sweep.ts";
