import type { Static, TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { validationFailed } from "./errors.ts";
import { schemaErrorDetails } from "./schema-errors.ts";

/**
 * Checks a value against a TypeBox schema without coercing or stripping anything, and throws
 * VALIDATION_FAILED listing every error. The server validates at the edge with the same schemas;
 * this is for callers that embed core without the server.
 */
export function assertValid<S extends TSchema>(schema: S, value: unknown, what: string): Static<S> {
  if (Value.Check(schema, value)) return value as Static<S>;
  throw validationFailed(`Invalid ${what}`, schemaErrorDetails(Value.Errors(schema, value)));
}
