/**
 * The record query language (core/collections/record-filter.ts, record-sort.ts,
 * record-aggregate.ts) in MongoDB queries, giving what the reference functions give.
 *
 * Filters. Mongo's type bracketing does most of it (`{ $gt: 5 }` matches no string), but a query
 * on a path also matches arrays by their elements, where the reference compares the value itself:
 * conditions on a field (never on a column: columns are never lists) add `$not: { $type: "array" }`,
 * except `contains` on a list, an `$elemMatch`. `ne`/`nin` are the `$nor` of `eq`/`in`, so they
 * match records without a value as the reference does. `contains` on text is an escaped regex
 * with `i` (Unicode simple case folding; the reference lower-cases both sides: they differ only on
 * the few characters whose lower case is longer, such as U+0130). `exists` is "present and not
 * null". An empty `and` matches everything, an empty `or` nothing.
 *
 * Sorts. The reference puts records without a value of the key's type last in both directions,
 * where Mongo sorts missing and null first ascending and orders other types by type. So a page
 * is read from up to two regions, each an index-friendly sort: the records whose key has the
 * operand's type (sorted on it, then `_id`), then the others (by `_id`), each after the keyset
 * position when it lies in that region.
 *
 * Aggregates. FerretDB v1 implements `$sum` and `$count` but neither `$min`, `$max`, `$avg` nor
 * `$cond`, and it computes only the FIRST accumulator of a `$group` (later ones come back as 0).
 * So a count-only aggregate is one `$group` with one accumulator, keyed by the raw values, whose
 * rows are folded into typed groups here (a value of another type counts as "no value", as the
 * reference has it); with any other metric the matching records are streamed with only the
 * needed paths and folded here the same way. Both fold into at most `MAX_FOLDED_GROUPS` groups.
 */
import {
  type AggregateGroup,
  compareGroups,
  type CompiledAggregate,
  type GroupKeyValue,
  typedValue,
} from "../../../core/collections/record-aggregate.ts";
import { compareValues, type CompiledFilter, type Operand } from "../../../core/collections/record-filter.ts";
import type { CompiledSort, KeysetPosition } from "../../../core/collections/record-sort.ts";
import { validationFailed } from "../../../core/kernel/errors.ts";
import type { RecordDoc } from "./documents.ts";

type Query = Record<string, unknown>;

/** Matches no document. */
export const NOTHING: Query = { _id: { $in: [] } };

/** A literal string as a regular expression (PCRE on MongoDB, RE2 on FerretDB alike). */
export const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");

/** `$and` of the non-empty parts. */
export function and(...parts: Query[]): Query {
  const kept = parts.filter((p) => Object.keys(p).length > 0);
  return kept.length === 0 ? {} : kept.length === 1 ? kept[0]! : { $and: kept };
}

/** The filter as a Mongo query on record documents. */
export function filterQuery(f: CompiledFilter): Query {
  if ("and" in f) return and(...f.and.map(filterQuery));
  if ("or" in f) return f.or.length === 0 ? NOTHING : f.or.length === 1 ? filterQuery(f.or[0]!) : { $or: f.or.map(filterQuery) };
  const o = f.operand;
  const p = o.path;
  // A field may hold a list (a schema edit): the reference compares the value, Mongo its elements.
  const scalar = (ops: Query): Query => ({ [p]: o.column ? ops : { ...ops, $not: { $type: "array" } } });
  switch (f.op) {
    case "exists": {
      // `null` and `$ne: null` also look into arrays: an undeclared field's list may hold a null item.
      if (o.type === "any") {
        const has = { $or: [{ [p]: { $type: "array" } }, { [p]: { $exists: true, $ne: null } }] };
        return f.value ? has : { $nor: [has] };
      }
      return f.value ? { [p]: { $exists: true, $ne: null } } : { [p]: null };
    }
    case "eq":
      return scalar({ $eq: f.value });
    case "ne":
      return { $nor: [scalar({ $eq: f.value })] };
    case "in":
      return scalar({ $in: f.value });
    case "nin":
      return { $nor: [scalar({ $in: f.value })] };
    case "contains": {
      // An element equal to the value (no element is itself a list: open-value.ts refuses lists in lists).
      const element = { [p]: { $elemMatch: { $eq: f.value } } };
      if (o.type === "list") return element;
      const substring = scalar({ $regex: escapeRegex(String(f.value)), $options: "i" });
      if (o.type === "any") return typeof f.value === "string" ? { $or: [substring, element] } : element;
      return substring;
    }
    default:
      return scalar({ [`$${f.op}`]: f.value });
  }
}

/** Each word a substring of `search_text` (both lower-case already). */
export function wordsQuery(words: readonly string[] | undefined): Query {
  return and(...(words ?? []).map((w) => ({ search_text: { $regex: escapeRegex(w) } })));
}

type BsonType = "number" | "string" | "bool";
/** The value types of a sort key, in ascending order (record-filter.ts `compareValues`). */
const SORT_TYPES: Record<"text" | "number" | "any", BsonType[]> = {
  text: ["string"],
  number: ["number"],
  any: ["number", "string", "bool"],
};
const bsonTypeOf = (v: unknown): BsonType => (typeof v === "number" ? "number" : typeof v === "boolean" ? "bool" : "string");

/** Records whose sort key has this type (one "values" region of the order). */
function typeQuery(o: Operand, type: BsonType): Query {
  return { [o.path]: o.column ? { $type: type } : { $type: type, $not: { $type: "array" } } };
}

/** The operand's value types in the order of the sort's direction. */
function sortTypes(s: CompiledSort & { operand: Operand }): BsonType[] {
  const types = SORT_TYPES[s.operand.type as "text" | "number" | "any"];
  if (!types) throw new TypeError(`Cannot sort on ${s.operand.path}`);
  return s.dir === "asc" ? types : [...types].reverse();
}

/**
 * The reads of one page, in order: each a query and sort to take up to the remaining count from.
 * See the top of this file: one region per value type of the key (three for an undeclared
 * field), then the records without such a value.
 */
export function pageReads(s: CompiledSort, after: KeysetPosition | null): { query: Query; sort: Record<string, 1 | -1> }[] {
  const d = s.dir === "asc" ? 1 : -1;
  const beyond = s.dir === "asc" ? "$gt" : "$lt";
  if (!s.operand) return [{ query: after ? { _id: { [beyond]: after.id } } : {}, sort: { _id: d } }];
  const o = s.operand;
  const types = sortTypes(s as CompiledSort & { operand: Operand });
  const untyped = { $nor: types.map((t) => typeQuery(o, t)) };
  const pv = after ? (after.v ?? null) : null;
  if (after && pv === null) return [{ query: and(untyped, { _id: { [beyond]: after.id } }), sort: { _id: d } }];
  const from = pv === null ? 0 : types.indexOf(bsonTypeOf(pv));
  const keyset: Query = after ? { $or: [{ [o.path]: { [beyond]: pv } }, { [o.path]: { $eq: pv }, _id: { [beyond]: after.id } }] } : {};
  return [
    ...types.slice(from).map((t, i) => ({
      query: and(typeQuery(o, t), i === 0 ? keyset : {}),
      sort: { [o.path]: d, _id: d } as Record<string, 1 | -1>,
    })),
    { query: untyped, sort: { _id: d } },
  ];
}

// ---- aggregates ----

/** Distinct groups an aggregate may fold in memory before it is refused. */
export const MAX_FOLDED_GROUPS = 100_000;

const typed = typedValue;

/** The value at a dotted path of a document; undefined when absent. */
function at(d: unknown, path: string): unknown {
  let v = d;
  for (const k of path.split(".")) {
    if (v === null || typeof v !== "object" || Array.isArray(v)) return undefined;
    v = (v as Record<string, unknown>)[k];
  }
  return v === null ? undefined : v;
}

interface Acc {
  sum: number;
  n: number;
  min: number | string | null;
  max: number | string | null;
}

/** Groups folded as `aggregateInMemory` folds them (same typing of keys and metric values). */
export class GroupFold {
  private readonly groups = new Map<string, { key: GroupKeyValue[]; count: number; acc: Acc[] }>();

  constructor(private readonly spec: CompiledAggregate) {}

  /** The paths a streamed record must carry. */
  projection(): Record<string, 1> {
    const p: Record<string, 1> = { _id: 1 };
    for (const o of this.spec.groupBy) p[o.path] = 1;
    for (const m of this.spec.metrics) if (m.operand) p[m.operand.path] = 1;
    return p;
  }

  private group(key: GroupKeyValue[]) {
    const id = JSON.stringify(key);
    let g = this.groups.get(id);
    if (!g) {
      if (this.groups.size >= MAX_FOLDED_GROUPS) {
        throw validationFailed(`Aggregate has more than ${MAX_FOLDED_GROUPS} groups: narrow the filter or group by fewer fields`, [
          { path: "/group_by", message: `more than ${MAX_FOLDED_GROUPS} groups` },
        ]);
      }
      this.groups.set(id, g = { key, count: 0, acc: this.spec.metrics.map(() => ({ sum: 0, n: 0, min: null, max: null })) });
    }
    return g;
  }

  /** One record (a document with at least `projection()`). */
  addRecord(d: RecordDoc | Record<string, unknown>): void {
    const g = this.group(this.spec.groupBy.map((o) => typed(o, at(d, o.path))));
    g.count++;
    this.spec.metrics.forEach((m, i) => {
      const v = typed(m.operand!, at(d, m.operand!.path));
      if (v === null || typeof v === "boolean") return;
      const a = g.acc[i]!;
      if (typeof v === "number") {
        a.sum += v;
        a.n++;
      }
      if (a.min === null || compareValues(v, a.min) < 0) a.min = v;
      if (a.max === null || compareValues(v, a.max) > 0) a.max = v;
    });
  }

  /** One row of a count-only `$group` keyed `{ k0, k1, ... }` on the raw values. */
  addCountRow(key: Record<string, unknown> | null, count: number): void {
    const g = this.group(this.spec.groupBy.map((o, i) => typed(o, key?.[`k${i}`] ?? undefined)));
    g.count += count;
  }

  /** At most `limit` groups in `compareGroups` order. */
  result(limit: number): AggregateGroup[] {
    return [...this.groups.values()]
      .map((g) => ({
        key: g.key,
        count: g.count,
        values: this.spec.metrics.map((m, i) => {
          const a = g.acc[i]!;
          return m.fn === "sum" ? a.sum : m.fn === "avg" ? (a.n ? a.sum / a.n : null) : m.fn === "min" ? a.min : a.max;
        }),
      }))
      .sort(compareGroups)
      .slice(0, limit);
  }
}

/** The `$group` stage of a count-only aggregate (one accumulator: see the top of this file). */
export function countGroupStage(spec: CompiledAggregate): Record<string, unknown> {
  const id: Record<string, string> = {};
  spec.groupBy.forEach((o, i) => (id[`k${i}`] = `$${o.path}`));
  return { $group: { _id: spec.groupBy.length === 0 ? null : id, count: { $sum: 1 } } };
}
