/** Credits: a per-workspace ledger that never overspends, and the answers kept for Idempotency-Keys. Public surface of the module. */
export * from "./model.ts";
export * from "./dto.ts";
export * from "./ports.ts";
export * from "./policy.ts";
export * from "./errors.ts";
export * from "./ledger-rules.ts";
export * from "./transfer.ts";
export { accountOf, creditAccount, creditHistory, grantCredits, type GrantOptions, type LedgerQuery } from "./credits.ts";
export {
  type Answer,
  checkIdempotencyKey,
  IDEMPOTENCY_KEY_MAX,
  IDEMPOTENCY_TTL_MS,
  idempotent,
  type IdempotentRequest,
} from "./idempotency.ts";
export { holdCredits, type HoldOptions, settleHold } from "./holds.ts";
