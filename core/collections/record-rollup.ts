import { type Static, Type } from "@sinclair/typebox";
import type { ErrorDetail } from "../kernel/errors.ts";
import type { Collection } from "./model.ts";
import {
  type AggregateGroup,
  AggregateRecordsDto,
  compileAggregate,
  type CompiledAggregate,
  type GroupKeyValue,
  GROUPS_LIMIT,
  MAX_METRICS,
} from "./record-aggregate.ts";
import type { Operand } from "./record-filter.ts";
import type { RecordSchema } from "./record-schema.ts";

/**
 * Aggregates a view declares (ADR 039): group keys and count, sum and avg metrics that a store may
 * keep as a rollup, updated with every record write, so that reading them costs a read of the
 * groups instead of a scan of the records. min and max are not declarable: a delete of the
 * current minimum would need the group rescanned, which is what a rollup is there to avoid.
 */
export const DECLARABLE_FNS = ["count", "sum", "avg"] as const;
export const MAX_VIEW_AGGREGATES = 5;

const { group_by: GroupBy, metrics: Metrics } = AggregateRecordsDto.properties;

export const DeclaredAggregateDef = Type.Object(
  {
    name: Type.String({
      pattern: "^[a-z][a-z0-9_]{0,63}$",
      description: "Unique within the view; names it in `POST …/records/aggregate`.",
    }),
    group_by: GroupBy,
    metrics: Type.Array(
      Type.Object({ ...Metrics.items.properties, fn: Type.Union(DECLARABLE_FNS.map((f) => Type.Literal(f))) }, {
        additionalProperties: false,
      }),
      {
        minItems: 1,
        maxItems: MAX_METRICS,
        description: "count, sum and avg (min and max only ad hoc: a delete of the minimum would need the group rescanned).",
      },
    ),
  },
  {
    additionalProperties: false,
    description:
      "An aggregate of all the view's records (the view's filter does not apply), kept up to date by the store with every record write: " +
      "served from that rollup on PostgreSQL and the embedded store, by a scan elsewhere (ADR 039).",
  },
);
export type DeclaredAggregateDef = Static<typeof DeclaredAggregateDef>;

/** What a rollup keeps of a record: its group key and the numbers it sums (with their count). */
export type RollupKey =
  | { column: "status" | "entity_id" | "drifted" }
  | { field: string; json: "string" | "number" | "boolean" | "any" };
export interface RollupShape {
  keys: RollupKey[];
  /** Field names whose JSON numbers are summed and counted (sum and avg). */
  sums: string[];
}

/** A declared aggregate, compiled. `id` is `<view name>/<aggregate name>`. */
export interface DeclaredRollup {
  id: string;
  view: string;
  name: string;
  spec: CompiledAggregate;
  /** The names of the dto's metrics, in order (count included). */
  names: string[];
  dto: DeclaredAggregateDef;
  shape: RollupShape;
}

/** One group of a rollup as a store keeps it: key values, record count, and per `shape.sums` field the sum and count of its numbers. */
export interface RollupRow {
  key: GroupKeyValue[];
  n: number;
  sums: number[];
  counts: number[];
}

const JSON_TYPE = { text: "string", number: "number", boolean: "boolean", any: "any" } as const;

function keyOf(o: Operand): RollupKey {
  if (o.column) return { column: o.name as "status" | "entity_id" | "drifted" };
  return { field: o.name, json: JSON_TYPE[o.type as keyof typeof JSON_TYPE] };
}

export function rollupShape(spec: CompiledAggregate): RollupShape {
  return {
    keys: spec.groupBy.map(keyOf),
    sums: [...new Set(spec.metrics.map((m) => m.operand!.name))].sort(),
  };
}

interface ViewWithAggregates {
  name: string;
  aggregates?: DeclaredAggregateDef[];
}

/** The problems of a view's declared aggregates, at `/views/<i>/aggregates/<j>/…`. */
export function declaredAggregateProblems(schema: RecordSchema, view: ViewWithAggregates, at: string): ErrorDetail[] {
  const out: ErrorDetail[] = [];
  const names = new Set<string>();
  (view.aggregates ?? []).forEach((a, j) => {
    const here = `${at}/aggregates/${j}`;
    if (names.has(a.name)) out.push({ path: `${here}/name`, message: `${a.name}: two aggregates of the view have this name` });
    names.add(a.name);
    try {
      compileAggregate(schema, { ...(a.group_by ? { group_by: a.group_by } : {}), metrics: a.metrics });
    } catch (e) {
      for (const d of (e as { details?: ErrorDetail[] }).details ?? []) out.push({ path: `${here}${d.path}`, message: d.message });
    }
  });
  return out;
}

/** Every aggregate the collection's views declare, compiled against its record_schema (invalid ones left out). */
export function declaredRollups(c: Pick<Collection, "record_schema" | "views">): DeclaredRollup[] {
  const out: DeclaredRollup[] = [];
  for (const view of c.views as ViewWithAggregates[]) {
    for (const dto of view.aggregates ?? []) {
      if (dto.metrics.some((m) => !(DECLARABLE_FNS as readonly string[]).includes(m.fn))) continue;
      try {
        const { spec, names } = compileAggregate(c.record_schema, {
          ...(dto.group_by ? { group_by: dto.group_by } : {}),
          metrics: dto.metrics,
          max_groups: GROUPS_LIMIT.max,
        });
        out.push({ id: `${view.name}/${dto.name}`, view: view.name, name: dto.name, spec, names, dto, shape: rollupShape(spec) });
      } catch {
        // A stored view that no longer compiles (it was valid when set) declares nothing.
      }
    }
  }
  return out;
}

const samePaths = (a: Operand[], b: Operand[]) =>
  a.length === b.length && a.every((o, i) => o.path === b[i]!.path && o.type === b[i]!.type);

/**
 * The declared rollup that answers an ad-hoc aggregate, if any: no filter, the same group keys in
 * the same order, and only count, sum and avg of fields the rollup sums.
 */
export function rollupServing(rollups: DeclaredRollup[], spec: CompiledAggregate): DeclaredRollup | null {
  if (spec.filter) return null;
  if (spec.metrics.some((m) => m.fn !== "sum" && m.fn !== "avg")) return null;
  return rollups.find((r) =>
    samePaths(r.spec.groupBy, spec.groupBy) &&
    spec.metrics.every((m) => r.spec.metrics.some((d) => d.operand!.path === m.operand!.path && d.operand!.type === m.operand!.type))
  ) ?? null;
}

/** A rollup's group as the aggregate answers it: sums as numbers, avg as sum / count (null of none), as `aggregateInMemory` computes them. */
export function groupOfRollup(spec: CompiledAggregate, shape: RollupShape, row: RollupRow): AggregateGroup {
  return {
    key: row.key,
    count: row.n,
    values: spec.metrics.map((m) => {
      const i = shape.sums.indexOf(m.operand!.name);
      const sum = row.sums[i] ?? 0;
      const n = row.counts[i] ?? 0;
      return m.fn === "sum" ? sum : n ? sum / n : null;
    }),
  };
}
