import type { Static, TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { type ErrorDetail, validationFailed } from "./errors.ts";

/**
 * Checks a value against a TypeBox schema without coercing or stripping anything, and throws
 * VALIDATION_FAILED listing every error. The server validates at the edge with the same schemas;
 * this is for callers that embed core without the server.
 */
export function assertValid<S extends TSchema>(schema: S, value: unknown, what: string): Static<S> {
  if (Value.Check(schema, value)) return value as Static<S>;
  const details: ErrorDetail[] = [];
  for (const e of Value.Errors(schema, value)) {
    details.push({ path: e.path || "/", message: validationMessage(e.message, e.value) });
    if (details.length >= 50) break;
  }
  throw validationFailed(`Invalid ${what}`, details);
}

/**
 * A schema error's message for a client. A `null` where none is allowed says so: in a merge
 * patch `null` means "remove", and a field that cannot be removed (a topic's title) is refused
 * with that reason rather than with a bare "Expected string".
 */
export function validationMessage(message: string, value: unknown): string {
  return value === null ? `${message}: this field cannot be null` : message;
}
