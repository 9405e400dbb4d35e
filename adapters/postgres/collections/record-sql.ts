/**
 * The record query language in SQL: compiled filters, sorts, keyset positions and aggregates
 * (core/collections/record-*.ts) as parameterised conditions on `collection_records`. Every
 * value, field names included, is a parameter; the reference meanings are `matches`, `isAfter`
 * and `aggregateInMemory`.
 *
 * A field's value is read typed: `fields->'x'` of another JSON type than the operand's is no
 * value (SQL null), so it never matches a comparison and sorts and groups with the missing ones.
 * Numbers compare as float8 (JavaScript numbers), text by code point (collation "C"). An
 * undeclared field (operand type `any`) is read typed by each condition's value; its sorts and
 * groups rank the JSON types first (`rankOf`: numbers, strings, booleans, then no value).
 */
import { isUuid } from "../../../core/kernel/ids.ts";
import type { CompiledAggregate } from "../../../core/collections/record-aggregate.ts";
import type { CompiledFilter, Operand } from "../../../core/collections/record-filter.ts";
import type { CompiledSort, KeysetPosition } from "../../../core/collections/record-sort.ts";
import type { SqlDriver } from "../driver.ts";

type ValueType = "text" | "number" | "boolean";

/** The parameters of one statement: `add` appends a value and returns its placeholder. */
export class Params {
  readonly values: unknown[];
  constructor(...initial: unknown[]) {
    this.values = initial;
  }
  add(v: unknown, cast = ""): string {
    this.values.push(v);
    return `$${this.values.length}${cast}`;
  }
}

const CAST: Record<ValueType, string> = { text: "::text", number: "::float8", boolean: "::boolean" };

/** Columns that never hold null (each has a value of its operand type on every record). */
const NOT_NULL_COLUMNS = new Set(["status", "created_at", "updated_at", "drifted"]);
const COLUMN_TYPES: Record<string, ValueType> = {
  status: "text",
  entity_id: "text",
  created_at: "text",
  updated_at: "text",
  drifted: "boolean",
};

const nullable = (o: Operand) => !(o.column && NOT_NULL_COLUMNS.has(o.name));

/** `fields -> $n`, the field's JSON value (null when missing). */
function jsonOf(o: Operand, p: Params): string {
  return `fields -> ${p.add(o.name, "::text")}`;
}

/** The operand's value as `t`, null when it has none of that type. */
function typed(o: Operand, t: ValueType, p: Params): string {
  if (o.column) {
    const own = COLUMN_TYPES[o.name];
    if (!own) throw new TypeError(`Not a record column: ${o.name}`);
    return own === t ? o.name : `null${CAST[t]}`;
  }
  const key = p.add(o.name, "::text");
  const json = `fields -> ${key}`;
  if (t === "text") return `(case when jsonb_typeof(${json}) = 'string' then fields ->> ${key} end) collate "C"`;
  // `numbers` holds exactly the record's JSON numbers (migration 028): no type check. Through text:
  // `->>` and a float8 parse of the number's own digits (exact, as JavaScript reads them) cost
  // less than jsonb's cast, which goes through numeric.
  if (t === "number") return `(numbers ->> ${key})::float8`;
  return `(case when jsonb_typeof(${json}) = 'boolean' then (fields ->> ${key})::boolean end)`;
}

const valueType = (v: unknown): ValueType => (typeof v === "number" ? "number" : typeof v === "boolean" ? "boolean" : "text");

/** Where an undeclared field's value sorts by its JSON type (record-filter.ts `compareValues`); 3: no scalar value. */
function rankOf(json: string): string {
  return `(case jsonb_typeof(${json}) when 'number' then 0 when 'string' then 1 when 'boolean' then 2 else 3 end)`;
}
const RANK_TYPES: ValueType[] = ["number", "text", "boolean"];
const rankOfValue = (v: unknown) => RANK_TYPES.indexOf(valueType(v));

const ORDER_OPS = { gt: ">", gte: ">=", lt: "<", lte: "<=" } as const;

/**
 * Collations whose `lower` maps all of Unicode, best first: ICU's root locale does full case
 * mapping as JavaScript's `toLowerCase` does; the others simple mapping. A database whose own
 * collation is "C" lower-cases ASCII only, so `contains` names one of these when it can.
 */
export const FOLDING_COLLATIONS = ["und-x-icu", "pg_c_utf8", "C.utf8", "C.UTF-8"] as const;

/** The first of `FOLDING_COLLATIONS` the database has; null when none (then: the database's own). */
export async function foldingCollation(db: SqlDriver): Promise<string | null> {
  const rows = await db.query<{ collname: string }>(
    `select collname from pg_collation where collname = any($1::text[]) and collencoding in (-1, pg_char_to_encoding(getdatabaseencoding()))`,
    [[...FOLDING_COLLATIONS]],
  );
  const have = new Set(rows.map((r) => r.collname));
  return FOLDING_COLLATIONS.find((c) => have.has(c)) ?? null;
}

/** How the statement is written for this database. */
export interface SqlDialect {
  /** From `foldingCollation`. */
  foldingCollation: string | null;
}

function lower(expr: string, d: SqlDialect): string {
  return d.foldingCollation === null ? `lower(${expr})` : `lower(${expr} collate "${d.foldingCollation}")`;
}

/**
 * The SQL condition of a compiled filter. Conditions under `and`/`or` only ever meet SQL null
 * where the reference says false (no negation wraps them), except `ne` and `nin`, which are
 * written to be true on a missing value.
 */
export function filterSql(f: CompiledFilter, p: Params, d: SqlDialect): string {
  if ("and" in f) return f.and.length === 0 ? "true" : `(${f.and.map((c) => filterSql(c, p, d)).join(" and ")})`;
  if ("or" in f) return f.or.length === 0 ? "false" : `(${f.or.map((c) => filterSql(c, p, d)).join(" or ")})`;
  const o = f.operand;
  switch (f.op) {
    case "exists": {
      if (o.column) return nullable(o) ? `${o.name} is ${f.value ? "not " : ""}null` : String(f.value);
      const json = jsonOf(o, p);
      return f.value ? `jsonb_typeof(${json}) <> 'null'` : `coalesce(jsonb_typeof(${json}) = 'null', true)`;
    }
    case "contains": {
      // jsonb containment of a one-element array: an element of the list equal to the value
      // (scalars match only scalar elements, numbers numerically).
      const element = () => {
        const json = jsonOf(o, p);
        return `(jsonb_typeof(${json}) = 'array' and ${json} @> ${p.add(JSON.stringify([f.value]), "::text")}::jsonb)`;
      };
      const substring = () => `strpos(${lower(typed(o, "text", p), d)}, ${lower(p.add(String(f.value), "::text"), d)}) > 0`;
      if (o.type === "list") return element();
      if (o.type === "any") return typeof f.value === "string" ? `(${substring()} or ${element()})` : element();
      return substring();
    }
    case "in":
    case "nin": {
      if (o.type === "any") {
        // Values of several types: each type's own `= any`, a missing or other-typed value null.
        const byType = RANK_TYPES.flatMap((t) => {
          const vs = f.value.filter((v) => valueType(v) === t);
          if (!vs.length) return [];
          const list = t === "boolean" ? `array[${vs.map((v) => p.add(v, CAST.boolean)).join(", ")}]` : p.add(vs, `${CAST[t]}[]`);
          return [`${typed(o, t, p)} = any(${list})`];
        });
        const some = `(${byType.join(" or ")})`;
        return f.op === "in" ? some : `not coalesce(${some}, false)`;
      }
      const t = valueType(f.value[0]);
      const x = typed(o, t, p);
      // postgres.js types an array parameter by its first item, so a boolean array would be sent
      // as a boolean: booleans go one parameter each.
      const list = t === "boolean" ? `array[${f.value.map((v) => p.add(v, CAST.boolean)).join(", ")}]` : p.add(f.value, `${CAST[t]}[]`);
      if (f.op === "in") return `${x} = any(${list})`;
      return nullable(o) ? `(${x} is null or ${x} <> all(${list}))` : `${x} <> all(${list})`;
    }
    case "eq":
    case "ne": {
      const t = valueType(f.value);
      const x = typed(o, t, p);
      const v = p.add(f.value, CAST[t]);
      if (f.op === "eq") return `${x} = ${v}`;
      return nullable(o) ? `(${x} is null or ${x} <> ${v})` : `${x} <> ${v}`;
    }
    default: {
      const t = valueType(f.value);
      return `${typed(o, t, p)} ${ORDER_OPS[f.op]} ${p.add(f.value, CAST[t])}`;
    }
  }
}

function sortType(o: Operand): "text" | "number" {
  if (o.type !== "text" && o.type !== "number") throw new TypeError(`Cannot sort on ${o.path}`);
  return o.type;
}

/**
 * `order by` of a sort: the key (missing values last in either direction), then id the same way.
 * A column that is never null is written without `nulls last`, so an index on it serves the order.
 */
export function orderSql(s: CompiledSort, p: Params): string {
  const dir = s.dir === "asc" ? "asc" : "desc";
  if (!s.operand) return `id ${dir}`;
  if (s.operand.type === "any") {
    // Rank 3 (no value) last either way; within a rank only that type's key is non-null.
    const o = s.operand;
    const keys = RANK_TYPES.map((t) => `${typed(o, t, p)} ${dir}`);
    return `${rankOf(jsonOf(o, p))} = 3, ${rankOf(jsonOf(o, p))} ${dir}, ${keys.join(", ")}, id ${dir}`;
  }
  const key = typed(s.operand, sortType(s.operand), p);
  return nullable(s.operand) ? `${key} ${dir} nulls last, id ${dir}` : `${key} ${dir}, id ${dir}`;
}

/** The records strictly after `pos` in the order of `s` (record-sort.ts `isAfter`). */
export function afterSql(s: CompiledSort, pos: KeysetPosition, p: Params): string {
  const cmp = s.dir === "asc" ? ">" : "<";
  // Ids are uuids (cursors are checked); anything else still compares as the text it is.
  const [idCol, idParam] = isUuid(pos.id) ? ["id", p.add(pos.id, "::uuid")] : [`id::text collate "C"`, p.add(pos.id, "::text")];
  if (!s.operand) return `${idCol} ${cmp} ${idParam}`;
  if (s.operand.type === "any") {
    const o = s.operand;
    const v = pos.v ?? null;
    const rank = () => rankOf(jsonOf(o, p));
    if (v === null) return `(${rank()} = 3 and ${idCol} ${cmp} ${idParam})`;
    const r = rankOfValue(v);
    const t = RANK_TYPES[r]!;
    const key = typed(o, t, p);
    const within = `(${rank()} = ${r} and (${key} ${cmp} ${p.add(v, CAST[t])} or (${key} = ${
      p.add(v, CAST[t])
    } and ${idCol} ${cmp} ${idParam})))`;
    // Later ranks come after ascending; earlier ones, then the valueless, descending.
    return s.dir === "asc" ? `(${rank()} > ${r} or ${within})` : `(${rank()} = 3 or ${rank()} < ${r} or ${within})`;
  }
  const t = sortType(s.operand);
  const key = typed(s.operand, t, p);
  const v = pos.v ?? null;
  if (v === null) return nullable(s.operand) ? `(${key} is null and ${idCol} ${cmp} ${idParam})` : "false";
  if (t === "number" ? typeof v !== "number" : typeof v !== "string") {
    throw new TypeError(`A ${t} sort cannot continue after ${typeof v} ${String(v)}`);
  }
  // A row comparison: with an index on (key, id), an index range.
  const rest = `(${key}, ${idCol}) ${cmp} (${p.add(v, CAST[t])}, ${idParam})`;
  return nullable(s.operand) ? `(${key} is null or ${rest})` : rest;
}

/**
 * The statement of an aggregate over the records matching `where` (already holding its
 * parameters in `p`): groups as `k0…`, `n` (count), metrics as `m0…`, in `compareGroups` order,
 * at most `maxGroups + 1`.
 */
export function aggregateSql(spec: CompiledAggregate, where: string, p: Params): string {
  const keys = spec.groupBy.map((o, i) => {
    if (o.type !== "any") return `${typed(o, o.type as ValueType, p)} as k${i}`;
    // An undeclared field groups by its scalar JSON value (1 and 1.0 alike, as in JavaScript).
    const json = jsonOf(o, p);
    return `(case when jsonb_typeof(${json}) in ('number', 'string', 'boolean') then ${json} end) as k${i}`;
  });
  const metrics = spec.metrics.map((m, i) => {
    const o = m.operand!;
    if (o.type === "any" && (m.fn === "min" || m.fn === "max")) {
      // Numbers rank before strings: the adapter takes min's number, else its text; max's text, else its number.
      return `${m.fn}(${typed(o, "number", p)}) as m${i}, ${m.fn}(${typed(o, "text", p)}) as m${i}t`;
    }
    const x = typed(o, m.fn === "sum" || m.fn === "avg" || o.type === "any" ? "number" : sortType(o), p);
    const agg = m.fn === "sum" ? `coalesce(sum(${x}), 0)` : `${m.fn}(${x})`;
    return `${agg} as m${i}`;
  });
  const groupBy = keys.length ? `group by ${keys.map((_, i) => i + 1).join(", ")}` : "having count(*) > 0";
  // Grouped in a subquery so that the order can compute on the keys (k0…).
  return `select * from (
            select ${[...keys, "count(*)::int as n", ...metrics].join(", ")}
            from collection_records where ${where}
            ${groupBy}
          ) g
          order by ${groupOrderSql(spec)}
          limit ${p.add(Math.max(0, Math.trunc(spec.maxGroups)) + 1, "::int")}`;
}

/** `compareGroups` over a grouped row's `n` and keys `k0…` (typed values; an undeclared field's as jsonb). */
function groupOrderSql(spec: CompiledAggregate): string {
  return [
    "n desc",
    ...spec.groupBy.map((o, i) => {
      if (o.type !== "any") return `k${i} asc nulls last`;
      const k = `k${i}`;
      return `${rankOf(k)}, ${
        RANK_TYPES.map((t) =>
          `(case when jsonb_typeof(${k}) = '${t === "text" ? "string" : t}' then (${k} #>> '{}')${CAST[t]} end)${
            t === "text" ? ` collate "C"` : ""
          }`
        ).join(", ")
      }`;
    }),
  ].join(", ");
}

/**
 * The groups of a declared aggregate's rollup (migration 023), in `compareGroups` order, at most
 * `maxGroups + 1`; no row at all when no rollup of that id and shape exists (`has` tells an empty
 * rollup from a missing one). Parameters: $1 workspace, $2 collection, then the rollup's.
 */
export function rollupSql(spec: CompiledAggregate, rollupId: string, shape: unknown, p: Params): string {
  const keys = spec.groupBy.map((o, i) => {
    const v = `(g.key ->> ${i})`;
    if (o.type === "any") return `nullif(g.key -> ${i}, 'null'::jsonb) as k${i}`;
    const t = o.column ? COLUMN_TYPES[o.name] : o.type;
    return `${t === "number" ? `${v}::float8` : t === "boolean" ? `${v}::boolean` : `${v} collate "C"`} as k${i}`;
  });
  return `select d.id as has, x.key, x.n, x.sums, x.counts
          from record_rollups d
          left join lateral (
            select * from (
              select ${[...keys, "g.key", "g.n::float8 as n", "g.sums::float8[] as sums", "g.counts::float8[] as counts"].join(", ")}
              from record_rollup_groups g
              where g.workspace_id = d.workspace_id and g.collection_id = d.collection_id and g.rollup = d.id
            ) g
            order by ${groupOrderSql(spec)}
            limit ${p.add(Math.max(0, Math.trunc(spec.maxGroups)) + 1, "::int")}
          ) x on true
          where d.workspace_id = $1 and d.collection_id = $2 and d.id = ${p.add(rollupId, "::text")} and d.shape = ${
    p.add(JSON.stringify(shape), "::text")
  }::jsonb`;
}
