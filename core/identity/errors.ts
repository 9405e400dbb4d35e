import type { ErrorDetail } from "../kernel/errors.ts";

/**
 * The identity module's failures, returned as values, never thrown: every use case answers
 * `Result<T>`. The codes are stable. The OAuth ones are RFC 6749 §5.2 / RFC 7591 §3.2.2 error codes,
 * so the server writes them to the wire as they are; `not_found`, `forbidden` and `insufficient_scope`
 * (the write scope is missing: step-up helps) are for the grant operations a principal calls,
 * mapped like core's `NOT_FOUND`, `FORBIDDEN` and access's `insufficientScope`.
 */
export const IDENTITY_ERROR_CODES = [
  "invalid_request",
  "invalid_client",
  "invalid_grant",
  "unauthorized_client",
  "unsupported_grant_type",
  "invalid_scope",
  "invalid_redirect_uri",
  "invalid_client_metadata",
  "not_found",
  "forbidden",
  "insufficient_scope",
] as const;
export type IdentityErrorCode = (typeof IDENTITY_ERROR_CODES)[number];

export interface IdentityError {
  code: IdentityErrorCode;
  /** Sentence case, detail after a colon; safe to show (`error_description`). */
  description: string;
  /** Which parameters were wrong, for the API's envelope (the RFCs' answers carry none). */
  details?: ErrorDetail[];
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: IdentityError };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const fail = <T = never>(code: IdentityErrorCode, description: string, details?: ErrorDetail[]): Result<T> => ({
  ok: false,
  error: details ? { code, description, details } : { code, description },
});
