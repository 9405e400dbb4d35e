import { AppError } from "../kernel/errors.ts";

/** 402: the operation needs more credits than are available; nothing was held or charged. */
export function insufficientCredits(required: number, available: number): AppError {
  const shortfall = required - available;
  return new AppError(
    "INSUFFICIENT_CREDITS",
    `Insufficient credits: ${required} required, ${available} available (short by ${shortfall})`,
    [],
    { required, available, shortfall },
  );
}

/** 409: an `Idempotency-Key` sent again with another request. */
export function idempotencyKeyReused(): AppError {
  return new AppError(
    "IDEMPOTENCY_KEY_REUSED",
    "Idempotency-Key reused: it was first sent with another request; use a new key for a new request",
  );
}
