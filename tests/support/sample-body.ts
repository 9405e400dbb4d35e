// The OpenAPI document is walked as plain JSON.
// deno-lint-ignore no-explicit-any
type Json = any;

/**
 * A minimal value of a JSON Schema, for requests whose answer should be decided by authorization,
 * not validation: an object's required properties only, a string of its enum, format or minimum
 * length (made unique by `unique`, since many creates refuse a taken name), the lowest number
 * allowed. Patterns are not solved: an operation whose body needs a particular string says so in
 * its own request (tests/support/authorization-operations.ts).
 */
export function sampleOf(schema: Json, unique: () => string, doc?: Json): unknown {
  if (!schema || typeof schema !== "object") return null;
  if (schema.$ref && doc) return sampleOf(resolve(doc, schema.$ref), unique, doc);
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  for (const key of ["anyOf", "oneOf"] as const) {
    if (Array.isArray(schema[key])) {
      const nonNull = schema[key].find((s: Json) => s.type !== "null") ?? schema[key][0];
      return sampleOf(nonNull, unique, doc);
    }
  }
  if (Array.isArray(schema.allOf)) return Object.assign({}, ...schema.allOf.map((s: Json) => sampleOf(s, unique, doc)));
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== "null") : schema.type;
  switch (type) {
    case "object": {
      const out: Record<string, unknown> = {};
      for (const name of schema.required ?? []) out[name] = sampleOf(schema.properties?.[name], unique, doc);
      return out;
    }
    case "array":
      return Array.from({ length: schema.minItems ?? 0 }, () => sampleOf(schema.items, unique, doc));
    case "integer":
    case "number":
      return schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 1);
    case "boolean":
      return false;
    case "string":
      return stringOf(schema, unique);
    default:
      return null;
  }
}

function stringOf(schema: Json, unique: () => string): string {
  switch (schema.format) {
    case "email":
      return `${unique()}@example.com`;
    case "uri":
    case "url":
      return "https://example.com/";
    case "date-time":
      return new Date().toISOString();
    case "uuid":
      return "0190a0a0-0000-7000-8000-000000000000";
  }
  const s = `s${unique()}`.replace(/[^a-z0-9]/g, "");
  return s.length >= (schema.minLength ?? 0) ? s.slice(0, schema.maxLength ?? s.length) : s.padEnd(schema.minLength, "x");
}

function resolve(doc: Json, ref: string): Json {
  return ref.replace(/^#\//, "").split("/").reduce((node: Json, part: string) => node?.[part], doc);
}
