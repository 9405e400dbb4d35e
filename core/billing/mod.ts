/**
 * Billing (issue #15), so far its pure rules: the plan catalogue and limits (plans.ts) and billing
 * periods (period.ts). Plans, usage, checkout, offers and webhooks come next. Public surface of
 * the module.
 */
export * from "./plans.ts";
export * from "./period.ts";
