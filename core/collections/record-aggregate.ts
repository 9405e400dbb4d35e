import { type Static, Type } from "@sinclair/typebox";
import { type ErrorDetail, validationFailed } from "../kernel/errors.ts";
import type { CollectionRecord } from "./model.ts";
import {
  compareValues,
  type CompiledFilter,
  compileFilter,
  FilterNode,
  isScalar,
  matches,
  type Operand,
  operandOf,
  operandValue,
} from "./record-filter.ts";
import type { RecordSchema } from "./record-schema.ts";

/**
 * Aggregates over a collection's records: groups by up to three fields or columns, and count,
 * sum, avg, min, max. The number of groups returned is bounded; `truncated` says when more exist.
 */
export const AGGREGATE_FNS = ["count", "sum", "avg", "min", "max"] as const;
export type AggregateFn = (typeof AGGREGATE_FNS)[number];
export const MAX_GROUP_BY = 3;
export const MAX_METRICS = 10;
export const GROUPS_LIMIT = { default: 100, max: 1000 } as const;

export const AggregateRecordsDto = Type.Object(
  {
    filter: Type.Optional(FilterNode),
    group_by: Type.Optional(
      Type.Array(Type.String({ maxLength: 80 }), {
        maxItems: MAX_GROUP_BY,
        description:
          "Scalar `fields.<name>` (an undeclared field groups by its scalar values, arrays and objects with the missing ones) or columns `status`, `entity_id`, `drifted`. None: one group of everything.",
      }),
    ),
    metrics: Type.Optional(Type.Array(
      Type.Object(
        {
          fn: Type.Union(AGGREGATE_FNS.map((f) => Type.Literal(f))),
          field: Type.Optional(
            Type.String({
              maxLength: 80,
              description: "Required except for count: a number field for sum and avg; a number, date or text field for min and max. " +
                "On an undeclared field, sum and avg take its numbers; min and max its numbers and strings, numbers ordered first.",
            }),
          ),
          as: Type.Optional(
            Type.String({ pattern: "^[a-z][a-z0-9_]{0,63}$", description: "Name of the result; default `count` or `<fn>_<field name>`." }),
          ),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: MAX_METRICS, description: "Required unless `view` is given." },
    )),
    view: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description:
          "The name of a view whose declared aggregate to answer (with `aggregate`, required when the view declares several), instead of `group_by`, `metrics` and `filter`. " +
          "A declared aggregate is served from its rollup; so is an ad-hoc request without a filter whose keys and count, sum and avg metrics a declared one holds.",
      }),
    ),
    aggregate: Type.Optional(Type.String({ maxLength: 64, description: "The name of one of the view's `aggregates`; only with `view`." })),
    max_groups: Type.Optional(Type.Integer({ minimum: 1, maximum: GROUPS_LIMIT.max, description: `Default ${GROUPS_LIMIT.default}.` })),
  },
  { additionalProperties: false },
);
export type AggregateRecordsDto = Static<typeof AggregateRecordsDto>;

export interface CompiledMetric {
  fn: AggregateFn;
  /** null for count */
  operand: Operand | null;
  name: string;
}

export interface CompiledAggregate {
  filter: CompiledFilter | null;
  groupBy: Operand[];
  /** Every metric but count (each group carries its count). */
  metrics: CompiledMetric[];
  maxGroups: number;
}

export type GroupKeyValue = string | number | boolean | null;

/** A group as a store returns it: its key values (in `groupBy` order), count, and metric values (in `metrics` order). */
export interface AggregateGroup {
  key: GroupKeyValue[];
  count: number;
  values: (number | string | null)[];
}

export function compileAggregate(schema: RecordSchema, dto: AggregateRecordsDto): { spec: CompiledAggregate; names: string[] } {
  const errors: ErrorDetail[] = [];
  const groupBy: Operand[] = [];
  (dto.group_by ?? []).forEach((path, i) => {
    const o = operandOf(schema, path);
    if (typeof o === "string") errors.push({ path: `/group_by/${i}`, message: o });
    else if (o.type === "list" || (o.column && (o.name === "created_at" || o.name === "updated_at"))) {
      errors.push({ path: `/group_by/${i}`, message: "cannot group by lists or timestamps" });
    } else groupBy.push(o);
  });
  const metrics: CompiledMetric[] = [];
  const names: string[] = [];
  if (!dto.metrics) errors.push({ path: "/metrics", message: "is required (or name a `view` with declared aggregates)" });
  (dto.metrics ?? []).forEach((m, i) => {
    const at = `/metrics/${i}`;
    if (m.fn === "count") {
      if (m.field !== undefined) errors.push({ path: `${at}/field`, message: "count takes no field" });
      names.push(m.as ?? "count");
      return;
    }
    if (m.field === undefined) return void errors.push({ path: `${at}/field`, message: `${m.fn} needs a field` });
    const o = operandOf(schema, m.field);
    if (typeof o === "string") return void errors.push({ path: `${at}/field`, message: o });
    const numeric = m.fn === "sum" || m.fn === "avg";
    if (o.type !== "any" && (numeric ? o.type !== "number" : o.type !== "number" && o.type !== "text")) {
      return void errors.push({ path: `${at}/field`, message: `${m.fn} needs a ${numeric ? "number" : "number, date or text"} field` });
    }
    const name = m.as ?? `${m.fn}_${o.name}`;
    metrics.push({ fn: m.fn, operand: o, name });
    names.push(name);
  });
  if (new Set(names).size !== names.length) errors.push({ path: "/metrics", message: "two metrics have the same name; set `as`" });
  let filter: CompiledFilter | null = null;
  try {
    if (dto.filter) filter = compileFilter(schema, dto.filter);
  } catch (e) {
    errors.push(...((e as { details?: ErrorDetail[] }).details ?? []));
  }
  if (errors.length) throw validationFailed("Invalid aggregate", errors);
  return { spec: { filter, groupBy, metrics, maxGroups: dto.max_groups ?? GROUPS_LIMIT.default }, names };
}

/** The operand's value as a group key or metric input: of its type (any scalar when undeclared), else null. */
export const typedValue = (o: Operand, v: unknown): GroupKeyValue =>
  (o.type === "any" && isScalar(v)) ||
    (o.type === "text" && typeof v === "string") ||
    (o.type === "number" && typeof v === "number") ||
    (o.type === "boolean" && typeof v === "boolean")
    ? (v as GroupKeyValue)
    : null;
const typed = typedValue;

function compareKeyValue(a: GroupKeyValue, b: GroupKeyValue): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return compareValues(a, b);
}

/** The order of groups: most records first, then by key, values without a key last. */
export function compareGroups(a: AggregateGroup, b: AggregateGroup): number {
  if (a.count !== b.count) return b.count - a.count;
  for (let i = 0; i < a.key.length; i++) {
    const c = compareKeyValue(a.key[i]!, b.key[i]!);
    if (c) return c;
  }
  return 0;
}

/** The reference aggregate over records in memory: every group, in `compareGroups` order. */
export function aggregateInMemory(records: Iterable<CollectionRecord>, spec: CompiledAggregate): AggregateGroup[] {
  const groups = new Map<
    string,
    { key: GroupKeyValue[]; count: number; acc: { sum: number; n: number; min: number | string | null; max: number | string | null }[] }
  >();
  for (const r of records) {
    const rec = r as unknown as CollectionRecord & Record<string, unknown>;
    if (spec.filter && !matches(rec, spec.filter)) continue;
    const key = spec.groupBy.map((o) => typed(o, operandValue(rec, o)));
    const id = JSON.stringify(key);
    let g = groups.get(id);
    if (!g) groups.set(id, g = { key, count: 0, acc: spec.metrics.map(() => ({ sum: 0, n: 0, min: null, max: null })) });
    g.count++;
    spec.metrics.forEach((m, i) => {
      const v = typed(m.operand!, operandValue(rec, m.operand!));
      if (v === null || typeof v === "boolean") return;
      const a = g!.acc[i]!;
      if (typeof v === "number") {
        a.sum += v;
        a.n++;
      }
      if (a.min === null || compareValues(v, a.min) < 0) a.min = v;
      if (a.max === null || compareValues(v, a.max) > 0) a.max = v;
    });
  }
  return [...groups.values()]
    .map((g) => ({
      key: g.key,
      count: g.count,
      values: spec.metrics.map((m, i) => {
        const a = g.acc[i]!;
        return m.fn === "sum" ? a.sum : m.fn === "avg" ? (a.n ? a.sum / a.n : null) : m.fn === "min" ? a.min : a.max;
      }),
    }))
    .sort(compareGroups);
}
