import { scopesFor } from "../../core/access/mod.ts";
import type { IdentityError, IdentityErrorCode, Result } from "../../core/identity/mod.ts";
import { AppError, type ErrorCode } from "../../core/kernel/errors.ts";

/** The one table that maps domain error codes to HTTP statuses. */
export const STATUS_OF: Record<ErrorCode, number> = {
  VALIDATION_FAILED: 400,
  IMPORT_INVALID: 400,
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

/**
 * The status of an identity failure where the OAuth RFCs' own shape answers it (registration,
 * token, revocation: `{error, error_description}`, docs/decisions/029-oauth-server.md): a failed
 * client authentication is 401 (RFC 6749 §5.2), every other OAuth error 400; the grant
 * operations' codes never reach those answers and keep their envelope statuses.
 */
export const OAUTH_STATUS_OF: Record<IdentityErrorCode, 400 | 401 | 403 | 404> = {
  invalid_request: 400,
  invalid_client: 401,
  invalid_grant: 400,
  unauthorized_client: 400,
  unsupported_grant_type: 400,
  invalid_scope: 400,
  invalid_redirect_uri: 400,
  invalid_client_metadata: 400,
  not_found: 404,
  forbidden: 403,
  insufficient_scope: 403,
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
