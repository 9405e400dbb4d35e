import { AppError, isAppError, type ErrorDetail } from "../../core/kernel/errors.ts";
import { validationMessage } from "../../core/kernel/validation.ts";

/**
 * Translates what Elysia throws into domain errors: request validation is our 400
 * VALIDATION_FAILED (Elysia says 422 VALIDATION); a response that fails its own schema is a bug
 * of ours, so a 500.
 */
export function toAppError(code: string | number, error: unknown): AppError {
  if (isAppError(error)) return error;
  if (code === "VALIDATION") {
    const v = error as { type?: string; all?: Array<{ path?: string; message?: string; summary?: string; value?: unknown }> };
    if (v.type === "response") return new AppError("INTERNAL", "Internal error: response did not match its schema");
    const where = v.type ?? "body";
    const details: ErrorDetail[] = (v.all ?? []).slice(0, 50).map((e) => ({
      path: `${where}${e.path || ""}`,
      message: validationMessage(e.summary ?? e.message ?? "invalid", e.value),
    }));
    return new AppError("VALIDATION_FAILED", `Invalid request ${where}`, details);
  }
  if (code === "PARSE") {
    // Our own body parser (json-body.ts) refuses with a domain error; Elysia wraps it as the cause.
    const cause = (error as { cause?: unknown }).cause;
    if (isAppError(cause)) return cause;
    return new AppError("VALIDATION_FAILED", "Invalid request body: expected a JSON document (content-type application/json)");
  }
  if (code === "NOT_FOUND") return new AppError("NOT_FOUND", "Route not found");
  if (code === "INVALID_COOKIE_SIGNATURE" || code === "INVALID_FILE_TYPE") {
    return new AppError("VALIDATION_FAILED", "Invalid request");
  }
  return new AppError("INTERNAL", "Internal error");
}
