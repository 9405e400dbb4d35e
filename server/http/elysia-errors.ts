import { AppError, type ErrorDetail, isAppError, type SchemaError, schemaErrorDetails } from "../../core/kernel/mod.ts";

/**
 * Translates what Elysia throws into domain errors: request validation is our 400
 * VALIDATION_FAILED (Elysia says 422 VALIDATION); a response that fails its own schema is a bug
 * of ours, so a 500.
 */
export function toAppError(code: string | number, error: unknown): AppError {
  if (isAppError(error)) return error;
  if (code === "VALIDATION") {
    const v = error as { type?: string; all?: SchemaError[] };
    if (v.type === "response") return new AppError("INTERNAL", "Internal error: response did not match its schema");
    const where = v.type ?? "body";
    const details: ErrorDetail[] = schemaErrorDetails(v.all ?? [], { prefix: where, limit: 50, describe: expectation });
    // Parameters are named in the message itself: `Invalid request query: limit: expected an integer from 1 to 200`.
    const first = details[0];
    const named = (where === "query" || where === "headers" || where === "params") && first
      ? `: ${first.path.slice(where.length + 1)}: ${first.message}`
      : "";
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

interface ParamSchema {
  type?: string;
  minimum?: number;
  maximum?: number;
  format?: string;
  anyOf?: Array<{ type?: string }>;
}

/**
 * What a declared parameter expects, in words, for the schemas query-schemas.ts builds; undefined
 * for any other. (An enum's allowed values are named by schemaErrorDetails itself, everywhere.)
 */
function expectation(error: SchemaError): string | undefined {
  const schema = error.schema as ParamSchema | undefined;
  if (!schema) return undefined;
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
