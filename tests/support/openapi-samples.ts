import { allowedValues } from "../../core/kernel/schema-errors.ts";

/**
 * Values made from the served OpenAPI document's schemas, for tests that drive every operation
 * from the document: the smallest value a schema accepts (required properties only, minimum
 * lengths and counts), and a string matching a declared pattern. A schema these cannot satisfy
 * throws, naming it, so a new shape is noticed rather than skipped.
 */
// deno-lint-ignore no-explicit-any
export type JsonSchema = Record<string, any>;

const SAMPLE_UUID = "01900000-0000-7000-8000-000000000001";
const STRING_CANDIDATES = [
  "a",
  "abc",
  "sample",
  SAMPLE_UUID,
  "x/y",
  "https://example.com/x",
  "a@example.com",
  "2026-01-01T00:00:00Z",
  "0123456789abcdef0123456789abcdef",
];

/** The smallest value `schema` accepts. */
export function sampleOf(schema: JsonSchema): unknown {
  const values = allowedValues(schema);
  if (values) return values.find((v) => v !== null);
  const variants: JsonSchema[] | undefined = schema.anyOf ?? schema.oneOf;
  if (variants) return sampleOf(variants.find((v) => v.type !== "null") ?? variants[0]!);
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== "null") : schema.type;
  switch (type) {
    case "object": {
      const out: Record<string, unknown> = {};
      for (const name of schema.required ?? []) out[name] = sampleOf(schema.properties?.[name] ?? {});
      // At least `minProperties`: optional ones in declared order.
      for (const [name, s] of Object.entries<JsonSchema>(schema.properties ?? {})) {
        if (Object.keys(out).length >= (schema.minProperties ?? 0)) break;
        if (!(name in out)) out[name] = sampleOf(s);
      }
      return out;
    }
    case "array":
      return Array.from({ length: schema.minItems ?? 0 }, () => sampleOf(schema.items ?? {}));
    case "string":
      return stringOf(schema);
    case "integer":
    case "number":
      return schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 1);
    case "boolean":
      return false;
    case "null":
      return null;
    default:
      return {};
  }
}

/** A string `schema` accepts: by its format, else the first candidate within its pattern and lengths. */
export function stringOf(schema: JsonSchema): string {
  if (schema.format === "uuid") return SAMPLE_UUID;
  if (schema.format === "date-time") return "2026-01-01T00:00:00Z";
  if (schema.format === "email") return "a@example.com";
  if (schema.format === "uri") return "https://example.com/x";
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? Infinity;
  const pattern = schema.pattern ? new RegExp(schema.pattern, "u") : null;
  for (const c of [...STRING_CANDIDATES, "a".repeat(Math.max(min, 1))]) {
    if (c.length >= min && c.length <= max && (!pattern || pattern.test(c))) return c;
  }
  throw new Error(`no sample string for ${JSON.stringify(schema)}`);
}
