import { scopesFor } from "../../core/access/mod.ts";
import type { IdentityError, IdentityErrorCode, Result } from "../../core/identity/mod.ts";
import { AppError, type ErrorCode } from "../../core/kernel/errors.ts";

/** The one table that maps domain error codes to HTTP statuses. */
export const STATUS_OF: Record<ErrorCode, number> = {
  VALIDATION_FAILED: 400,
  UNAUTHENTICATED: 401,
  INVALID_SIGNATURE: 401,
  INSUFFICIENT_CREDITS: 402,
  PLAN_LIMIT_REACHED: 402,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  VERSION_CONFLICT: 409,
  LAST_OWNER: 409,
  IDEMPOTENCY_KEY_REUSED: 409,
  PLAN_CHANGE_NOT_ALLOWED: 409,
  NO_BILLING_ACCOUNT: 409,
  QUOTE_EXPIRED: 409,
  QUOTE_STALE: 409,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  STORE_UNAVAILABLE: 503,
  BILLING_NOT_CONFIGURED: 503,
  IDENTITY_PROVIDER_UNAVAILABLE: 502,
};

/**
 * Identity's failures (`Result` values, core/identity/errors.ts) where the API's envelope answers
 * them: its code, and so its status above. The OAuth codes are a malformed request's there.
 */
export const IDENTITY_CODE_OF: Record<IdentityErrorCode, ErrorCode> = {
  invalid_request: "VALIDATION_FAILED",
  invalid_client: "VALIDATION_FAILED",
  invalid_grant: "VALIDATION_FAILED",
  unauthorized_client: "VALIDATION_FAILED",
  unsupported_grant_type: "VALIDATION_FAILED",
  invalid_scope: "VALIDATION_FAILED",
  invalid_redirect_uri: "VALIDATION_FAILED",
  invalid_client_metadata: "VALIDATION_FAILED",
  not_found: "NOT_FOUND",
  forbidden: "FORBIDDEN",
  insufficient_scope: "FORBIDDEN",
};

/** An identity failure as the domain error the envelope answers. */
export function identityAppError(e: IdentityError): AppError {
  // The identity module's only scoped refusal is a write's: the challenge names its scopes.
  const meta = e.code === "insufficient_scope" ? { required_scope: scopesFor("write").join(" ") } : undefined;
  return new AppError(IDENTITY_CODE_OF[e.code], e.description, e.details ?? [], meta);
}

/** An identity use case's value; its failure thrown as the envelope's error. */
export function identityValue<T>(r: Result<T>): T {
  if (!r.ok) throw identityAppError(r.error);
  return r.value;
}
