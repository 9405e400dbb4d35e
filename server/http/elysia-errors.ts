import { AppError, type ErrorDetail, isAppError } from "../../core/kernel/errors.ts";
import { validationMessage } from "../../core/kernel/validation.ts";

/**
 * Translates what Elysia throws into domain errors: request validation is our 400
 * VALIDATION_FAILED (Elysia says 422 VALIDATION); a response that fails its own schema is a bug
 * of ours, so a 500.
 */
export function toAppError(code: string | number, error: unknown): AppError {
  if (isAppError(error)) return error;
  if (code === "VALIDATION") {
    const v = error as { type?: string; all?: ValueError[] };
    if (v.type === "response") return new AppError("INTERNAL", "Internal error: response did not match its schema");
    const where = v.type ?? "body";
    const details: ErrorDetail[] = [];
    for (const e of (v.all ?? []).slice(0, 50)) {
      const detail = {
        path: `${where}${e.path || ""}`,
        message: expectation(e.schema) ?? validationMessage(e.summary ?? e.message ?? "invalid", e.value),
      };
      // A parameter failing its pattern and its format is one mistake, said once.
      if (!details.some((d) => d.path === detail.path && d.message === detail.message)) details.push(detail);
    }
    // Parameters are named in the message itself: `Invalid request query: limit: expected an integer from 1 to 200`.
    const first = details[0];
    const named = (where === "query" || where === "headers") && first ? `: ${first.path.slice(where.length + 1)}: ${first.message}` : "";
    return new AppError("VALIDATION_FAILED", `Invalid request ${where}${named}`, details);
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

interface ValueError {
  path?: string;
  message?: string;
  summary?: string;
  value?: unknown;
  schema?: { type?: string; enum?: unknown[]; minimum?: number; maximum?: number; format?: string; anyOf?: Array<{ type?: string }> };
}

/** What a declared parameter expects, in words, for the schemas query-schemas.ts builds; undefined for any other. */
function expectation(schema: ValueError["schema"]): string | undefined {
  if (!schema) return undefined;
  if (Array.isArray(schema.enum)) return `expected one of ${schema.enum.join(", ")}`;
  if (schema.type === "integer") {
    return schema.minimum !== undefined && schema.maximum !== undefined
      ? `expected an integer from ${schema.minimum} to ${schema.maximum}`
      : "expected an integer";
  }
  if (schema.type === "boolean" || schema.anyOf?.some((s) => s.type === "boolean")) return "expected true or false";
  if (schema.format === "uuid") return "expected a UUID";
  if (schema.format === "date-time") return "expected an RFC 3339 date-time, e.g. 2026-01-31T09:00:00Z";
  return undefined;
}
