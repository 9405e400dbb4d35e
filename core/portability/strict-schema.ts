import type { TProperties, TSchema } from "@sinclair/typebox";
import { UUID_PATTERN } from "../kernel/ids.ts";

/**
 * Makes a view's schema into a line's: every object with declared properties refuses others
 * (a field a store adds later, a secret included, fails the export instead of leaving in it), and
 * string formats become patterns (TypeBox checks a `format` only when the host registered it;
 * core registers nothing, so a line is checked alike in the server, a test and Deno).
 */
const DATE_TIME_PATTERN = "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(?:\\.\\d+)?(?:Z|[+-]\\d{2}:\\d{2})$";
const FORMAT_PATTERNS: Record<string, string> = { "uuid": UUID_PATTERN, "date-time": DATE_TIME_PATTERN };

export function strictSchema<T extends TSchema>(schema: T): T {
  return tighten(schema) as T;
}

function tighten(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(tighten);
  if (value === null || typeof value !== "object") return value;
  const source = value as Record<string | symbol, unknown>;
  const out: Record<string | symbol, unknown> = {};
  for (const key of Object.keys(source)) out[key] = key === "properties" ? tightenProperties(source[key]) : tighten(source[key]);
  // TypeBox keeps its kind and the optional mark under symbols: copied as they are.
  for (const sym of Object.getOwnPropertySymbols(source)) out[sym] = source[sym];
  if (out.type === "object" && out.properties && out.additionalProperties === undefined) out.additionalProperties = false;
  if (typeof out.format === "string") {
    const pattern = FORMAT_PATTERNS[out.format];
    delete out.format;
    if (pattern && out.pattern === undefined) out.pattern = pattern;
  }
  return out;
}

function tightenProperties(props: unknown): unknown {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(props as Record<string, unknown>)) out[k] = tighten(v);
  return out;
}

/** The properties of a schema but `keys` (the workspace id every stored object carries, derived fields). */
export function omit<P extends TProperties, K extends keyof P>(props: P, ...keys: K[]): Omit<P, K> {
  const out = { ...props };
  for (const k of keys) delete out[k];
  return out;
}
