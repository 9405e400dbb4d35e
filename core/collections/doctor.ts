import type { CollectionDeps } from "./ports.ts";
import type { ErrorDetail } from "../kernel/errors.ts";
import type { Workspace } from "../workspaces/mod.ts";
import { looseKey } from "./entity-key.ts";
import type { Collection, CollectionRecord, Entity } from "./model.ts";
import { DEFAULT_SORT } from "./record-sort.ts";
import { acceptsUndeclared } from "./record-schema.ts";
import { stageProblem, validateRecordFields } from "./record-validation.ts";
import { type InferredShape, inferShape, newShapeTally, tallyRecord } from "./shape-inference.ts";

/**
 * Finds what drifts silently in a workspace's collections: records whose status is no longer a
 * stage, records that fail the current schema (after a schema edit), links to entities that do
 * not exist, and entities that are likely duplicates (same kind, same key or name once loosely
 * normalised: entity-key.ts). `full` reads everything; otherwise a bounded sample (the newest
 * records of each collection up to a total, the newest entities), and the report says which.
 * For each collection that accepts undeclared fields it also reports their inferred shape
 * (shape-inference.ts): not a finding, a suggestion the owner may apply.
 */
export const DOCTOR_SAMPLE = { records: 2_000, entities: 2_000 } as const;
/** Each finding list shows at most this many items; its count is exact for what was scanned. */
export const DOCTOR_EXAMPLES = 100;
const PAGE = 200;

interface Finding<T> {
  count: number;
  items: T[];
}
const finding = <T>(): Finding<T> => ({ count: 0, items: [] });
const add = <T>(f: Finding<T>, item: T) => {
  f.count++;
  if (f.items.length < DOCTOR_EXAMPLES) f.items.push(item);
};

export async function runDoctor(deps: CollectionDeps, ws: Workspace, full: boolean) {
  const findings = {
    status_not_a_stage: finding<{ collection_id: string; record_id: string; status: string }>(),
    schema_mismatch: finding<{ collection_id: string; record_id: string; errors: ErrorDetail[] }>(),
    missing_entities: finding<{ collection_id: string; record_id: string; path: string; entity_id: string }>(),
    duplicate_entities: finding<{ kind: string; key: string; entity_ids: string[] }>(),
  };
  const scanned = { collections: 0, records: 0, entities: 0 };
  let complete = true;

  const collections: Collection[] = [];
  let afterId: string | undefined;
  for (;;) {
    const page = await deps.stores.collections.list(ws.id, { statuses: ["active", "archived"] }, {
      limit: PAGE,
      ...(afterId ? { afterId } : {}),
    });
    collections.push(...page.items);
    if (!page.has_more) break;
    afterId = page.items.at(-1)!.id;
  }
  scanned.collections = collections.length;

  const shapes: ({ collection_id: string; open: boolean; records_scanned: number } & InferredShape)[] = [];
  let budget = full ? Infinity : DOCTOR_SAMPLE.records;
  for (const c of collections) {
    const tally = acceptsUndeclared(c.record_schema) ? newShapeTally() : null;
    let seen = 0;
    for (let after: CollectionRecord | null = null; budget > 0;) {
      const limit = Math.min(PAGE, budget);
      const page = await deps.stores.records.query(ws.id, c.id, {
        filter: null,
        sort: DEFAULT_SORT,
        after: after ? { id: after.id } : null,
        limit,
      });
      budget -= page.items.length;
      scanned.records += page.items.length;
      seen += page.items.length;
      await checkRecords(deps, ws, c, page.items, findings);
      if (tally) { for (const r of page.items) tallyRecord(tally, c.record_schema, r.fields); }
      if (!page.has_more) break;
      if (budget <= 0) complete = false;
      after = page.items.at(-1)!;
    }
    if (budget <= 0 && c !== collections.at(-1)) complete = false;
    if (tally) {
      shapes.push({
        collection_id: c.id,
        open: Object.keys(c.record_schema.fields).length === 0,
        records_scanned: seen,
        ...inferShape(tally, c.record_schema),
      });
    }
  }

  const groups = new Map<string, Entity[]>();
  let entityBudget = full ? Infinity : DOCTOR_SAMPLE.entities;
  let afterEntity: string | undefined;
  while (entityBudget > 0) {
    const page = await deps.stores.entities.list(ws.id, null, {
      limit: Math.min(PAGE, entityBudget),
      ...(afterEntity ? { afterId: afterEntity } : {}),
    });
    entityBudget -= page.items.length;
    scanned.entities += page.items.length;
    for (const e of page.items) {
      const key = looseKey(e.dedup_key ?? e.name);
      if (!key) continue;
      const k = `${e.kind}\u0000${key}`;
      groups.set(k, [...(groups.get(k) ?? []), e]);
    }
    if (!page.has_more) break;
    if (entityBudget <= 0) complete = false;
    afterEntity = page.items.at(-1)!.id;
  }
  for (const [k, es] of groups) {
    if (es.length > 1) {
      add(findings.duplicate_entities, {
        kind: es[0]!.kind,
        key: k.split("\u0000")[1]!,
        entity_ids: es.map((e) => e.id).sort(),
      });
    }
  }

  return {
    mode: full ? ("full" as const) : ("sample" as const),
    complete,
    sample_limits: full ? null : { ...DOCTOR_SAMPLE },
    scanned,
    healthy: Object.values(findings).every((f) => f.count === 0),
    findings,
    shapes,
  };
}

async function checkRecords(
  deps: CollectionDeps,
  ws: Workspace,
  c: Collection,
  records: CollectionRecord[],
  f: {
    status_not_a_stage: Finding<{ collection_id: string; record_id: string; status: string }>;
    schema_mismatch: Finding<{ collection_id: string; record_id: string; errors: ErrorDetail[] }>;
    missing_entities: Finding<{ collection_id: string; record_id: string; path: string; entity_id: string }>;
  },
): Promise<void> {
  const links: { record: CollectionRecord; path: string; id: string }[] = [];
  for (const r of records) {
    if (stageProblem(c.record_schema, r.status)) add(f.status_not_a_stage, { collection_id: c.id, record_id: r.id, status: r.status });
    const v = validateRecordFields(c.record_schema, r.fields);
    if (v.errors.length) add(f.schema_mismatch, { collection_id: c.id, record_id: r.id, errors: v.errors.slice(0, 10) });
    if (r.entity_id) links.push({ record: r, path: "/entity_id", id: r.entity_id });
    for (const ref of v.entityRefs) links.push({ record: r, path: ref.path, id: ref.id });
  }
  if (!links.length) return;
  const found = new Set((await deps.stores.entities.getMany(ws.id, [...new Set(links.map((l) => l.id))])).map((e) => e.id));
  for (const l of links) {
    if (!found.has(l.id)) add(f.missing_entities, { collection_id: c.id, record_id: l.record.id, path: l.path, entity_id: l.id });
  }
}
