/**
 * Domain errors are values with a stable `code`. core never speaks HTTP: the server maps each
 * code to a status in one table (server/http/error-status.ts).
 */
export type ErrorCode =
  | "VALIDATION_FAILED"
  | "UNAUTHENTICATED"
  | "FORBIDDEN"
  | "NOT_FOUND"
  | "METHOD_NOT_ALLOWED"
  | "CONFLICT"
  | "VERSION_CONFLICT"
  | "LAST_OWNER"
  | "PAYLOAD_TOO_LARGE"
  | "RATE_LIMITED"
  | "INSUFFICIENT_CREDITS"
  | "PLAN_LIMIT_REACHED"
  | "IDEMPOTENCY_KEY_REUSED"
  | "IMPORT_INVALID"
  | "INVALID_SIGNATURE"
  | "PLAN_CHANGE_NOT_ALLOWED"
  | "NO_BILLING_ACCOUNT"
  | "BILLING_NOT_CONFIGURED"
  | "QUOTE_EXPIRED"
  | "QUOTE_STALE"
  | "STORE_UNAVAILABLE"
  | "IDENTITY_PROVIDER_UNAVAILABLE"
  | "ARCHIVE_INVALID"
  | "ARCHIVE_UNSAFE_ENTRY"
  | "IMPORT_INVALID"
  | "INTERNAL";

export interface ErrorDetail {
  /** JSON pointer or parameter name the detail is about, e.g. `/slug` or `query.limit`. */
  path: string;
  message: string;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetail[];
  readonly meta: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message: string, details: ErrorDetail[] = [], meta?: Record<string, unknown>) {
    super(message);
    this.name = "AppError";
    this.code = code;
    this.details = details;
    this.meta = meta;
  }
}

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}

export const validationFailed = (message: string, details: ErrorDetail[] = []) => new AppError("VALIDATION_FAILED", message, details);
export const notFound = (what: string) => new AppError("NOT_FOUND", `${what} not found`);
export const forbidden = (message: string) => new AppError("FORBIDDEN", message);
export const conflict = (message: string, meta?: Record<string, unknown>) => new AppError("CONFLICT", message, [], meta);
export const unauthenticated = (message = "Missing or invalid credentials") => new AppError("UNAUTHENTICATED", message);
/** A write that named a version the object has moved past: nothing was applied. */
export const versionConflict = (what: string, currentVersion: number) =>
  new AppError("VERSION_CONFLICT", `Cannot update ${what}: it changed since version you read (now ${currentVersion})`, [], {
    current_version: currentVersion,
  });
