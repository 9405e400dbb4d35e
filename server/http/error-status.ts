import type { ErrorCode } from "../../core/kernel/errors.ts";

/** The one table that maps domain error codes to HTTP statuses. */
export const STATUS_OF: Record<ErrorCode, number> = {
  VALIDATION_FAILED: 400,
  UNAUTHENTICATED: 401,
  INSUFFICIENT_CREDITS: 402,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  VERSION_CONFLICT: 409,
  LAST_OWNER: 409,
  IDEMPOTENCY_KEY_REUSED: 409,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  STORE_UNAVAILABLE: 503,
};
