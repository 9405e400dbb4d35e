import { type Static, type TSchema, Type } from "@sinclair/typebox";
import { type ErrorDetail, validationFailed } from "../kernel/errors.ts";
import { admitsField, type RecordSchema, type ScalarFieldDef } from "./record-schema.ts";

/**
 * The record query language: a filter tree of `and`/`or` over conditions on a record's fields
 * and columns, typed by the collection's schema. `compileFilter` checks a tree against the
 * schema (every problem at once) and gives the stores a typed tree; `matches` is the reference
 * meaning every store implements (the memory store runs it; the contract suite holds the SQL and
 * Mongo stores to it).
 */
export const FILTER_OPS = ["eq", "ne", "gt", "gte", "lt", "lte", "in", "nin", "contains", "exists"] as const;
export type FilterOp = (typeof FILTER_OPS)[number];
export const MAX_FILTER_CONDITIONS = 50;
export const MAX_FILTER_DEPTH = 4;
export const MAX_IN_VALUES = 100;

const Scalar = Type.Union([Type.String({ maxLength: 1000 }), Type.Number(), Type.Boolean()]);
export const FilterCondition = Type.Object(
  {
    field: Type.String({
      maxLength: 80,
      description:
        "`fields.<name>` of the record_schema (any name where the collection accepts undeclared fields), or a column: `status`, `entity_id`, `drifted`, `created_at`, `updated_at`.",
    }),
    op: Type.Union(FILTER_OPS.map((o) => Type.Literal(o)), {
      description:
        "eq/ne: equal (ne also matches records without a value); gt/gte/lt/lte: order (text by code point, numbers numerically, dates as ISO text); " +
        "in/nin: one of a list; contains: case-insensitive substring of text, or an element of a list field; exists: has a value (true) or not (false). " +
        "An undeclared field's values compare by JSON type: a condition matches only values of its own value's type (5 never equals \"5\"), " +
        "and orders rank numbers before strings before booleans (false before true); arrays and objects have no order.",
    }),
    value: Type.Optional(Type.Union([Scalar, Type.Array(Scalar, { maxItems: MAX_IN_VALUES })])),
  },
  { additionalProperties: false },
);
export type FilterCondition = Static<typeof FilterCondition>;

/**
 * Spelled out level by level rather than as a recursive schema: the OpenAPI document then needs
 * no `$ref` (a recursive TypeBox schema repeats its `$id` wherever it is used), and the depth
 * bound is part of the schema.
 */
function nodeSchema(levels: number): TSchema {
  if (levels === 0) return FilterCondition;
  const inner = nodeSchema(levels - 1);
  return Type.Union([
    FilterCondition,
    Type.Object({ and: Type.Array(inner, { minItems: 1, maxItems: MAX_FILTER_CONDITIONS }) }, { additionalProperties: false }),
    Type.Object({ or: Type.Array(inner, { minItems: 1, maxItems: MAX_FILTER_CONDITIONS }) }, { additionalProperties: false }),
  ]);
}
export const FilterNode = Type.Unsafe<FilterNode>({
  ...nodeSchema(MAX_FILTER_DEPTH - 1),
  description:
    `A filter tree: {and:[…]}, {or:[…]} or a condition; at most ${MAX_FILTER_CONDITIONS} conditions, ${MAX_FILTER_DEPTH} levels deep.`,
});
export type FilterNode = { and: FilterNode[] } | { or: FilterNode[] } | FilterCondition;

/** What a condition compares: a column of the record, or one of its fields, with its value type. */
export interface Operand {
  /** `status`, `entity_id`, `drifted`, `created_at`, `updated_at`, or `fields.<name>` */
  path: string;
  /** the column, or the field name under `fields` */
  name: string;
  column: boolean;
  /** `list`: a list field whose items are `itemType`; `any`: an undeclared field, whose values have no declared type */
  type: "text" | "number" | "boolean" | "list" | "any";
  itemType?: "text" | "number" | "boolean";
}

export type CompiledCondition =
  | { op: "eq" | "ne" | "gt" | "gte" | "lt" | "lte"; operand: Operand; value: string | number | boolean }
  | { op: "in" | "nin"; operand: Operand; value: (string | number | boolean)[] }
  | { op: "contains"; operand: Operand; value: string | number | boolean }
  | { op: "exists"; operand: Operand; value: boolean };
export type CompiledFilter = { and: CompiledFilter[] } | { or: CompiledFilter[] } | CompiledCondition;

export const RECORD_COLUMNS: Record<string, Operand["type"]> = {
  status: "text",
  entity_id: "text",
  drifted: "boolean",
  created_at: "text",
  updated_at: "text",
};

function valueType(def: ScalarFieldDef): "text" | "number" | "boolean" {
  return def.type === "number" || def.type === "integer" ? "number" : def.type === "boolean" ? "boolean" : "text";
}

/** The operand `path` names, typed by the schema; a detail when it names nothing. */
export function operandOf(schema: RecordSchema, path: string): Operand | string {
  const column = RECORD_COLUMNS[path];
  if (column) return { path, name: path, column: true, type: column };
  if (!path.startsWith("fields.")) return "must be fields.<name> or one of status, entity_id, drifted, created_at, updated_at";
  const name = path.slice(7);
  const def = Object.hasOwn(schema.fields, name) ? schema.fields[name] : undefined;
  if (!def) {
    return admitsField(schema, name)
      ? { path, name, column: false, type: "any" }
      : `${name} is not a field of this collection's record_schema`;
  }
  if (def.type === "list") return { path, name, column: false, type: "list", itemType: valueType(def.items) };
  return { path, name, column: false, type: valueType(def) };
}

/** Datetime values compare as UTC ISO text: a filter value is normalised like stored values. */
function normalise(schema: RecordSchema, o: Operand, v: unknown): unknown {
  const isDatetime = o.column
    ? o.name === "created_at" || o.name === "updated_at"
    : o.type !== "any" && schema.fields[o.name]?.type === "datetime";
  if (isDatetime && typeof v === "string" && !Number.isNaN(Date.parse(v))) return new Date(Date.parse(v)).toISOString();
  return v;
}

export function compileFilter(schema: RecordSchema, node: FilterNode, at = "/filter"): CompiledFilter {
  const errors: ErrorDetail[] = [];
  let conditions = 0;
  const walk = (n: FilterNode, path: string, depth: number): CompiledFilter => {
    if (depth > MAX_FILTER_DEPTH) {
      errors.push({ path, message: `is nested deeper than ${MAX_FILTER_DEPTH} levels` });
      return { and: [] };
    }
    if ("and" in n) return { and: n.and.map((c, i) => walk(c, `${path}/and/${i}`, depth + 1)) };
    if ("or" in n) return { or: n.or.map((c, i) => walk(c, `${path}/or/${i}`, depth + 1)) };
    if (++conditions === MAX_FILTER_CONDITIONS + 1) errors.push({ path: at, message: `has more than ${MAX_FILTER_CONDITIONS} conditions` });
    return condition(n, path);
  };
  const condition = (c: FilterCondition, path: string): CompiledFilter => {
    const operand = operandOf(schema, c.field);
    const placeholder: CompiledFilter = { and: [] };
    if (typeof operand === "string") {
      errors.push({ path: `${path}/field`, message: operand });
      return placeholder;
    }
    const problem = (message: string) => {
      errors.push({ path: `${path}/value`, message });
      return placeholder;
    };
    const scalarOf = (t: "text" | "number" | "boolean", v: unknown) =>
      (t === "text" && typeof v === "string") || (t === "number" && typeof v === "number") || (t === "boolean" && typeof v === "boolean");
    const typeName = (t: string) => (t === "text" ? "a string" : t === "number" ? "a number" : "true or false");
    const v = c.value;
    switch (c.op) {
      case "exists":
        return typeof v === "boolean" ? { op: "exists", operand, value: v } : problem("must be true or false");
      case "contains":
        if (operand.type === "any") {
          return isScalar(v) && v !== ""
            ? { op: "contains", operand, value: v }
            : problem("must be a non-empty string, a number or true/false");
        }
        if (operand.type === "list") {
          return scalarOf(operand.itemType!, v)
            ? { op: "contains", operand, value: v as string }
            : problem(`must be ${typeName(operand.itemType!)}`);
        }
        if (operand.type !== "text") return problem(`contains applies to text and list fields; ${c.field} is ${operand.type}`);
        return typeof v === "string" && v.length > 0 ? { op: "contains", operand, value: v } : problem("must be a non-empty string");
      case "in":
      case "nin":
        if (operand.type === "list") return problem(`${c.op} does not apply to list fields; use contains`);
        if (operand.type === "any") {
          return Array.isArray(v) && v.length > 0 ? { op: c.op, operand, value: v } : problem("must be a non-empty list of values");
        }
        if (!Array.isArray(v) || v.length === 0 || !v.every((x) => scalarOf(operand.type as "text", x))) {
          return problem(`must be a non-empty list of ${typeName(operand.type)} values`);
        }
        return { op: c.op, operand, value: v.map((x) => normalise(schema, operand, x)) as (string | number)[] };
      default: {
        if (operand.type === "list") return problem(`${c.op} does not apply to list fields; use contains or exists`);
        if (operand.type === "any") {
          if (c.op === "eq" || c.op === "ne") {
            return isScalar(v) ? { op: c.op, operand, value: v } : problem("must be a string, a number or true/false");
          }
          return typeof v === "string" || typeof v === "number"
            ? { op: c.op, operand, value: v }
            : problem(`${c.op} compares strings or numbers`);
        }
        if (operand.type === "boolean" && c.op !== "eq" && c.op !== "ne") return problem(`${c.op} does not apply to true/false values`);
        if (!scalarOf(operand.type, v)) return problem(`must be ${typeName(operand.type)}`);
        return { op: c.op, operand, value: normalise(schema, operand, v) as string };
      }
    }
  };
  const compiled = walk(node, at, 1);
  if (errors.length) throw validationFailed("Invalid filter", errors);
  return compiled;
}

/** The value of an operand on a record; undefined when it has none. */
export function operandValue(record: { fields: Record<string, unknown> } & Record<string, unknown>, o: Operand): unknown {
  const v = o.column ? record[o.name] : record.fields[o.name];
  return v === null ? undefined : v;
}

const sameType = (a: unknown, b: unknown) => typeof a === typeof b && !Array.isArray(a);

export type Scalar = string | number | boolean;
export const isScalar = (v: unknown): v is Scalar => typeof v === "string" || typeof v === "number" || typeof v === "boolean";

/** Where a scalar's JSON type sorts among undeclared values: numbers, then strings, then booleans. */
const TYPE_RANK: Record<string, number> = { number: 0, string: 1, boolean: 2 };

/** Code units mapped so that comparing them orders by code point (surrogates stand for code points above U+FFFF). */
const unit = (u: number) => (u >= 0xe000 ? u - 0x800 : u >= 0xd800 ? u + 0x2000 : u);

/**
 * Text order by Unicode code point, as PostgreSQL's "C" collation and MongoDB compare (JavaScript's
 * `<` compares UTF-16 code units, which differs for characters above U+FFFF).
 */
export function compareText(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return unit(x) - unit(y);
  }
  return a.length - b.length;
}

/**
 * The order of scalars: numbers numerically, texts by code point, false before true; across
 * types (only undeclared fields mix them), numbers before strings before booleans.
 */
export function compareValues(a: Scalar, b: Scalar): number {
  if (typeof a !== typeof b) return Math.sign(TYPE_RANK[typeof a]! - TYPE_RANK[typeof b]!);
  if (typeof a === "string") return Math.sign(compareText(a, b as string));
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The reference meaning of a compiled filter. */
export function matches(record: { fields: Record<string, unknown> } & Record<string, unknown>, f: CompiledFilter): boolean {
  if ("and" in f) return f.and.every((c) => matches(record, c));
  if ("or" in f) return f.or.some((c) => matches(record, c));
  const v = operandValue(record, f.operand);
  switch (f.op) {
    case "exists":
      return (v !== undefined) === f.value;
    case "eq":
      return sameType(v, f.value) && v === f.value;
    case "ne":
      return !(sameType(v, f.value) && v === f.value);
    case "in":
      return f.value.some((x) => sameType(v, x) && v === x);
    case "nin":
      return !f.value.some((x) => sameType(v, x) && v === x);
    case "contains":
      if (Array.isArray(v)) return (f.operand.type === "list" || f.operand.type === "any") && v.some((x) => x === f.value);
      return typeof v === "string" && typeof f.value === "string" && f.operand.type !== "list" &&
        v.toLowerCase().includes(f.value.toLowerCase());
    default: {
      if (!sameType(v, f.value)) return false;
      const c = compareValues(v as string | number, f.value as string | number);
      return f.op === "gt" ? c > 0 : f.op === "gte" ? c >= 0 : f.op === "lt" ? c < 0 : c <= 0;
    }
  }
}
