import type { Collection, CollectionRecord, Entity } from "../../../core/collections/model.ts";
import { compareGroups, GROUPS_LIMIT } from "../../../core/collections/record-aggregate.ts";
import { compileFilter } from "../../../core/collections/record-filter.ts";
import { declaredRollups } from "../../../core/collections/record-rollup.ts";
import { compileSort } from "../../../core/collections/record-sort.ts";
import { normalizeDedupKey } from "../../../core/collections/entity-key.ts";
import { uuidv7 } from "../../../core/kernel/ids.ts";
import type { Stores } from "../../../core/stores.ts";
import { collectionFixture, recordChangeFixture, recordFixture, stamp } from "../fixtures.ts";
import type { TransferSeeder } from "./seeder.ts";

/** What the seeder wrote per workspace, for `verify`. */
const seeded = new Map<string, { collection: Collection; records: CollectionRecord[]; entities: Entity[] }>();

const byStatus = {
  name: "by_status",
  group_by: ["status"],
  metrics: [{ fn: "count" as const }, { fn: "sum" as const, field: "fields.amount" }],
};

function entity(ws: string, kind: string, name: string, dedupKey: string | null, attributes: Record<string, unknown>): Entity {
  const at = stamp();
  return {
    id: uuidv7(),
    workspace_id: ws,
    kind,
    name,
    dedup_key: dedupKey,
    dedup_norm: dedupKey === null ? null : normalizeDedupKey(dedupKey),
    attributes,
    version: 1,
    created_at: at,
    updated_at: at,
  };
}

/**
 * A record with its search text as the set of its lines: the text is derived from the fields in
 * their stored order, which PostgreSQL's jsonb does not keep (shorter keys first), and a search
 * word never spans two lines, so the copy finds what the source finds.
 */
const comparable = (r: CollectionRecord | null) => r && { ...r, search_text: r.search_text.split("\n").sort() };

/**
 * Collections (ADR 070): a pipeline collection declaring a rollup (so PostgreSQL keeps groups the
 * copy must rebuild), entities with and without a dedup key, records with awkward values (Unicode,
 * nulls, empty lists, large numbers), updated and given an outcome (history of three types).
 */
export const collectionsSeeder: TransferSeeder = {
  module: "collections",
  async seed(s, ws) {
    const wsId = ws.workspace.id;
    const collection = collectionFixture(wsId, {
      name: "Déals 🚀",
      views: [{ name: "Pipeline", kind: "board", aggregates: [byStatus] }, { name: "All", kind: "table" }],
      created_by: ws.owner.identity.id,
    }) as Collection;
    await s.collections.insert(collection);
    const acme =
      (await s.entities.upsert(entity(wsId, "company", "Acme Ünïcode", "acme.example", { domain: "acme.example", tags: [] }), () => null))
        .entity;
    const loose = (await s.entities.upsert(entity(wsId, "person", "Zoë", null, { note: null, big: 9007199254740991 }), () => null)).entity;
    const records: CollectionRecord[] = [];
    const specs: Partial<CollectionRecord>[] = [
      { fields: { company: "Acme Ünïcode 東京", amount: 1250.5, tags: [] }, entity_id: acme.id },
      { fields: { company: "Beta", amount: 9007199254740991, tags: ["a", "b"], won: true }, status: "won" },
      { fields: { company: "Gamma" }, field_meta: { company: { source: "radar", confidence: 0.5 } }, drifted: true },
    ];
    for (const over of specs) {
      const r = recordFixture(collection, { ...over, created_by: ws.owner.identity.id, updated_by: ws.owner.identity.id });
      if ((await s.records.insert({ record: r, change: recordChangeFixture(r, { actor_id: ws.owner.identity.id }) })) !== "ok") {
        throw new Error("seed: record insert");
      }
      records.push(r);
    }
    // A second version (a stage move) and a third (an outcome) of the first record.
    const first = records[0]!;
    const v2: CollectionRecord = { ...first, status: "qualified", version: 2, updated_at: stamp() };
    await s.records.update({
      record: v2,
      change: recordChangeFixture(v2, {
        diff: [{ path: "status", before: "lead", after: "qualified" }],
        stage: { from: "lead", to: "qualified" },
      }),
    });
    const v3: CollectionRecord = { ...v2, version: 3, updated_at: stamp() };
    await s.records.update({
      record: v3,
      change: recordChangeFixture(v3, {
        type: "record.outcome",
        actor_kind: "agent",
        outcome: { outcome: "meeting", value: 3, note: "😀", occurred_at: v3.updated_at },
      }),
    });
    records[0] = v3;
    seeded.set(wsId, { collection, records, entities: [acme, loose] });
  },

  async verify(source: Stores, target: Stores, ws, expect) {
    const wsId = ws.workspace.id;
    const { collection: c, records, entities } = seeded.get(wsId)!;
    expect(await target.collections.get(wsId, c.id)).toEqual(await source.collections.get(wsId, c.id));
    const listed = await target.collections.list(wsId, { statuses: ["active"], nameWords: ["déals"] }, { limit: 10 });
    expect(listed.items.map((x) => x.id)).toEqual([c.id]);

    for (const e of entities) expect(await target.entities.get(wsId, e.id)).toEqual(await source.entities.get(wsId, e.id));
    expect((await target.entities.byDedupKeys(wsId, "company", [normalizeDedupKey("ACME.example")])).map((e) => e.id)).toEqual([
      entities[0]!.id,
    ]);
    expect((await target.entities.list(wsId, null, { limit: 10 })).items).toEqual(
      (await source.entities.list(wsId, null, { limit: 10 })).items,
    );

    for (const r of records) {
      expect(comparable(await target.records.get(wsId, c.id, r.id))).toEqual(comparable(await source.records.get(wsId, c.id, r.id)));
      expect(await target.records.history(wsId, c.id, r.id, 10)).toEqual(await source.records.history(wsId, c.id, r.id, 10));
    }
    // Found by filter and by search (the search text derived again on the copy).
    const sort = compileSort(c.record_schema, undefined);
    const filter = compileFilter(c.record_schema, { field: "status", op: "eq", value: "qualified" });
    const found = await target.records.query(wsId, c.id, { filter, sort, after: null, limit: 10, words: ["東京"] });
    expect(found.items.map((r) => r.id)).toEqual([records[0]!.id]);
    expect((await target.records.byEntities(wsId, c.id, [entities[0]!.id])).map((r) => r.id)).toEqual([records[0]!.id]);
    const all = await target.records.query(wsId, c.id, { filter: null, sort, after: null, limit: 10 });
    expect(all.items.map(comparable)).toEqual(
      (await source.records.query(wsId, c.id, { filter: null, sort, after: null, limit: 10 })).items.map(comparable),
    );

    // Rollups and aggregates answer alike (PostgreSQL keeps the rollup; the others scan).
    for (const r of declaredRollups(c)) {
      const spec = { ...r.spec, maxGroups: GROUPS_LIMIT.max };
      const [a, b] = await Promise.all([
        source.records.aggregateRollup(wsId, c.id, r, spec),
        target.records.aggregateRollup(wsId, c.id, r, spec),
      ]);
      expect(b?.sort(compareGroups) ?? null).toEqual(a?.sort(compareGroups) ?? null);
      const scanned = (await target.records.aggregate(wsId, c.id, spec)).sort(compareGroups);
      expect(scanned).toEqual((await source.records.aggregate(wsId, c.id, spec)).sort(compareGroups));
      if (b) expect(b).toEqual(scanned);
    }

    // The copy takes new writes: the next version of a copied record, and a new record.
    const cur = (await target.records.get(wsId, c.id, records[1]!.id))!;
    const next: CollectionRecord = { ...cur, status: "lost", version: cur.version + 1, updated_at: stamp() };
    expect(await target.records.update({ record: next, change: recordChangeFixture(next) })).toBe("ok");
    const fresh = recordFixture(c, { fields: { company: "Delta" } });
    expect(await target.records.insert({ record: fresh, change: recordChangeFixture(fresh) })).toBe("ok");
    // …and leaves the copy as it was for the seeders verified after this one.
    expect(await target.records.delete(wsId, c.id, fresh.id, 1)).toMatchObject({ record_id: fresh.id });
  },
};
