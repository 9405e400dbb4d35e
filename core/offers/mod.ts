/**
 * Offers: the platform operator's priced proposals of a plan to one workspace, after Stripe
 * Quotes, and the contracts a workspace is held to once one is accepted or the operator sets an
 * enterprise plan (model.ts, offers.ts, contracts.ts; ADR 034); the operator's views of plans and
 * workspaces (platform.ts); a contract's included credits at each later period start and the
 * recovery of accepted offers' effects (jobs.ts, included-schedule.ts, sweep.ts; ADR 043). Builds on
 * billing (plans, periods, usage, included credits); billing imports nothing of it (ADR 061).
 * Public surface of the module.
 */
export * from "./model.ts";
export * from "./dto.ts";
export * from "./ports.ts";
export * from "./policy.ts";
export * from "./offers.ts";
export * from "./contracts.ts";
export * from "./platform.ts";
export * from "./jobs.ts";
export * from "./included-schedule.ts";
export * from "./sweep.ts";
