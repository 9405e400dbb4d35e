import { ValueErrorType } from "@sinclair/typebox/value";
import type { ErrorDetail } from "./errors.ts";

/**
 * The one place a schema error becomes what a client reads, for every caller that validates with
 * TypeBox: the HTTP edge (Elysia's validation errors), core's assertValid, the MCP tools and the
 * receivers' payloads. docs/decisions/053-schema-error-messages.md.
 *
 * - A value outside an enum (a string `enum`, a `const`, a union of literals, nullable or not)
 *   names the allowed values: `expected one of github, gitlab, bitbucket, git`. Left to
 *   themselves, TypeBox says `Expected union value` and Elysia `should be one of: 'string', ...`.
 * - A failed union of other shapes (a filter that is a condition or an `and`/`or` group) speaks
 *   for its closest variant: the errors of the variant that fails the least, so a bad `op` deep in
 *   a filter is reported at its own path, naming the operators.
 */
export interface SchemaError {
  type?: number;
  path?: string;
  message?: string;
  /** Elysia's wording of some errors (`Property 'x' is missing`), preferred to TypeBox's. */
  summary?: string;
  value?: unknown;
  schema?: unknown;
  /** A union's: each variant's own errors. */
  errors?: Iterable<SchemaError>[];
}

export interface SchemaErrorOptions {
  /** Put before each error's JSON pointer: `body` gives `body/provider`. */
  prefix?: string;
  /** At most this many details (default 50). */
  limit?: number;
  /** A caller's own wording of an error that is not an enum's (e.g. a query parameter's integer bounds). */
  describe?: (error: SchemaError) => string | undefined;
}

/** The details of `errors` for a client: each error said once, a union's by its closest variant. */
export function schemaErrorDetails(errors: Iterable<SchemaError>, opts: SchemaErrorOptions = {}): ErrorDetail[] {
  const limit = opts.limit ?? 50;
  const details: ErrorDetail[] = [];
  const missing = new Set<string>();
  for (const error of errors) {
    for (const e of closest(error, 0, opts.describe)) {
      const detail = { path: `${opts.prefix ?? ""}${e.path ?? ""}` || "/", message: schemaErrorMessage(e, opts.describe) };
      // A missing property is not also of the wrong type; a value failing its pattern and its enum
      // (a query parameter) is one mistake: each said once.
      if (missing.has(detail.path) || details.some((d) => d.path === detail.path && d.message === detail.message)) continue;
      if (e.type === ValueErrorType.ObjectRequiredProperty) missing.add(detail.path);
      details.push(detail);
      if (details.length >= limit) return details;
    }
  }
  return details;
}

/** One error's message: the allowed values of an enum, else the caller's wording, else the validator's. */
export function schemaErrorMessage(e: SchemaError, describe?: SchemaErrorOptions["describe"]): string {
  const allowed = allowedValues(e.schema);
  let message: string;
  if (e.type === ValueErrorType.ObjectRequiredProperty) {
    message = `${e.summary ?? e.message ?? "missing"}${allowed ? `: ${expectedOneOf(allowed)}` : ""}`;
  } else if (allowed) message = expectedOneOf(allowed);
  else {
    message = describe?.(e) ?? (e.type === ValueErrorType.Union ? `expected ${kindsOf(e.schema)}` : e.summary ?? e.message ?? "invalid");
  }
  return validationMessage(message, e.value);
}

/**
 * A schema error's message for a client. A `null` where none is allowed says so: in a merge
 * patch `null` means "remove", and a field that cannot be removed (a topic's title) is refused
 * with that reason rather than with a bare "Expected string".
 */
export function validationMessage(message: string, value: unknown): string {
  return value === null ? `${message}: this field cannot be null` : message;
}

/**
 * The values an enum-like schema allows: a string `enum`, a `const` (a literal), or a union whose
 * variants are all such (a `null` variant included); undefined for any other schema.
 */
export function allowedValues(schema: unknown): unknown[] | undefined {
  if (!isRecord(schema)) return undefined;
  if (Array.isArray(schema.enum)) return schema.enum;
  if ("const" in schema) return [schema.const];
  const variants = schema.anyOf ?? schema.oneOf;
  if (!Array.isArray(variants) || variants.length === 0) return undefined;
  const values: unknown[] = [];
  for (const v of variants) {
    const of = isRecord(v) && v.type === "null" ? [null] : allowedValues(v);
    if (!of) return undefined;
    for (const x of of) if (!values.includes(x)) values.push(x);
  }
  return values.some((x) => x !== null) ? values : undefined;
}

const show = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v));

function expectedOneOf(values: unknown[]): string {
  return values.length === 1 ? `expected ${show(values[0])}` : `expected one of ${values.map(show).join(", ")}`;
}

/** What a union of shapes takes, in words: `object or null`. */
function kindsOf(schema: unknown): string {
  const variants = isRecord(schema) && Array.isArray(schema.anyOf) ? schema.anyOf : [];
  const kinds = variants.map((
    v,
  ) => (isRecord(v) && "const" in v ? show(v.const) : isRecord(v) && typeof v.type === "string" ? v.type : "a value"));
  return [...new Set(kinds)].join(" or ") || "another value";
}

/** Errors saying a value is of another kind than the schema's (a string where an object is expected, another constant). */
const KIND_ERRORS: ReadonlySet<number> = new Set([
  ValueErrorType.Array,
  ValueErrorType.BigInt,
  ValueErrorType.Boolean,
  ValueErrorType.Date,
  ValueErrorType.Integer,
  ValueErrorType.Literal,
  ValueErrorType.Never,
  ValueErrorType.Null,
  ValueErrorType.Number,
  ValueErrorType.Object,
  ValueErrorType.String,
  ValueErrorType.Tuple,
  ValueErrorType.Undefined,
  ValueErrorType.Union,
]);

/**
 * The errors that stand for `e`: itself, or for a failed union of shapes, those of its closest
 * variant. A variant refusing the value's kind at the union's own path (a string where an object
 * is expected) is another shape altogether; among the others the one with the fewest errors is
 * closest. When every variant is of another kind, or the caller words the union itself (a query
 * parameter's boolean), the union's own error stands.
 */
function* closest(e: SchemaError, depth: number, describe?: SchemaErrorOptions["describe"]): Generator<SchemaError> {
  if (e.type !== ValueErrorType.Union || !e.errors || allowedValues(e.schema) || describe?.(e) !== undefined || depth > 16) return yield e;
  const at = e.path ?? "";
  let best: SchemaError[] | undefined;
  for (const variant of e.errors) {
    const list = first(variant, 32);
    if (list.length === 0 || list.some((x) => (x.path ?? "") === at && KIND_ERRORS.has(x.type ?? -1))) continue;
    if (!best || list.length < best.length) best = list;
  }
  if (!best) return yield e;
  for (const inner of best) yield* closest(inner, depth + 1, describe);
}

function first(errors: Iterable<SchemaError>, n: number): SchemaError[] {
  const out: SchemaError[] = [];
  for (const e of errors) {
    out.push(e);
    if (out.length >= n) break;
  }
  return out;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;
