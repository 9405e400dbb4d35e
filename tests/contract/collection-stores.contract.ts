import type { TestApi } from "./kit/test-api.ts";
import type { Collection, CollectionRecord, Entity, RecordChange } from "../../core/collections/model.ts";
import { aggregateInMemory, type AggregateRecordsDto, compareGroups, compileAggregate } from "../../core/collections/record-aggregate.ts";
import { compileFilter, type FilterNode, matches } from "../../core/collections/record-filter.ts";
import { compareRecords, type CompiledSort, compileSort, positionOf, type RecordSort } from "../../core/collections/record-sort.ts";
import type { RecordQuery } from "../../core/collections/ports.ts";
import { recordSearchText } from "../../core/collections/record-text.ts";
import { uuidv7 } from "../../core/kernel/ids.ts";
import type { Stores } from "../../core/stores.ts";
import { bootstrapped, collectionFixture, recordChangeFixture, recordFixture, stamp } from "./fixtures.ts";

/**
 * The contract of the collection store ports (core/collections/ports.ts). Query, sort, keyset and
 * aggregate results are compared with core's reference functions (`matches`, `compareRecords`,
 * `aggregateInMemory`) over the same records, so every backend means the same thing by a filter.
 */
export function runCollectionStoresContract(name: string, open: () => Promise<Stores>, api: TestApi) {
  const { afterAll, beforeAll, describe, expect, test } = api;
  describe(`${name}: collection, record and entity stores`, () => {
    let s: Stores;
    beforeAll(async () => {
      s = await open();
    });
    afterAll(async () => {
      await s?.close();
    });

    const workspace = async () => (await bootstrapped(s)).workspace.id;

    async function collection(ws: string, over: Partial<Collection> = {}): Promise<Collection> {
      const c = collectionFixture(ws, over) as Collection;
      await s.collections.insert(c);
      return c;
    }

    const change = recordChangeFixture;
    const recordOf = recordFixture;

    async function record(c: Collection, over: Partial<CollectionRecord> = {}): Promise<CollectionRecord> {
      const r = recordOf(c, over);
      expect(await s.records.insert({ record: r, change: change(r) })).toBe("ok");
      return r;
    }

    function next(r: CollectionRecord, over: Partial<CollectionRecord>): CollectionRecord {
      const fields = over.fields ?? r.fields;
      return { ...r, ...over, fields, search_text: recordSearchText(fields), version: r.version + 1, updated_at: stamp() };
    }

    function entity(ws: string, over: Partial<Entity> = {}): Entity {
      const at = stamp();
      return {
        id: uuidv7(),
        workspace_id: ws,
        kind: "company",
        name: "Acme",
        dedup_key: null,
        dedup_norm: null,
        attributes: {},
        version: 1,
        created_at: at,
        updated_at: at,
        ...over,
      };
    }

    // ---- collections ----

    test("CollectionStore.insert() then get() returns it; other workspaces do not see it", async () => {
      const ws = await workspace();
      const c = await collection(ws, {
        views: [{ name: "board", kind: "board" }],
        criterion_rel_slugs: ["icp"],
        distill_policy: { enabled: true },
        presentation: { title_field: "company" },
      });
      expect(await s.collections.get(ws, c.id)).toEqual(c);
      expect(await s.collections.get(await workspace(), c.id)).toBeNull();
      expect(await s.collections.get(ws, uuidv7())).toBeNull();
    });

    test("CollectionStore.list() filters by status, owner, updated_after and name words, newest first, paged by id", async () => {
      const ws = await workspace();
      const owner = uuidv7();
      const a = await collection(ws, { name: "Enterprise Deals" });
      const b = await collection(ws, { name: "SMB deals", owner_identity_id: owner });
      const c = await collection(ws, { name: "Archive", status: "archived" });
      const ids = async (f: Parameters<Stores["collections"]["list"]>[1], limit = 10, afterId?: string) =>
        (await s.collections.list(ws, f, { limit, ...(afterId ? { afterId } : {}) })).items.map((x) => x.id);
      expect(await ids({ statuses: ["active"] })).toEqual([b.id, a.id]);
      expect(await ids({ statuses: ["active", "archived"] })).toEqual([c.id, b.id, a.id]);
      expect(await ids({ statuses: ["archived"] })).toEqual([c.id]);
      expect(await ids({ statuses: ["active"], ownerId: owner })).toEqual([b.id]);
      expect(await ids({ statuses: ["active", "archived"], updatedAfter: a.updated_at })).toEqual([c.id, b.id]);
      expect(await ids({ statuses: ["active"], nameWords: ["deals"] })).toEqual([b.id, a.id]);
      expect(await ids({ statuses: ["active"], nameWords: ["deals", "enter"] })).toEqual([a.id]);
      const first = await s.collections.list(ws, { statuses: ["active", "archived"] }, { limit: 2 });
      expect(first.has_more).toBe(true);
      expect(await ids({ statuses: ["active", "archived"] }, 2, first.items[1]!.id)).toEqual([a.id]);
    });

    test("CollectionStore.update() replaces the version before it; a stale version is a conflict", async () => {
      const ws = await workspace();
      const c = await collection(ws);
      const v2 = { ...c, name: "Renamed", status: "archived" as const, version: 2, updated_at: stamp() };
      expect(await s.collections.update(v2)).toBe("ok");
      expect(await s.collections.get(ws, c.id)).toEqual(v2);
      expect(await s.collections.update({ ...c, name: "Late", version: 2 })).toBe("version_conflict");
      expect(await s.collections.update({ ...v2, id: uuidv7(), version: 3 })).toBe("not_found");
      expect(await s.collections.update({ ...v2, workspace_id: await workspace(), version: 3 })).toBe("not_found");
    });

    test("CollectionStore.purge() removes the collection, its records and history, after the plan said so", async () => {
      const ws = await workspace();
      const c = await collection(ws);
      const keep = await collection(ws);
      const e = uuidv7();
      const r1 = await record(c, { entity_id: e });
      await record(c);
      const kept = await record(keep);
      const r1b = next(r1, { status: "won" });
      expect(
        await s.records.update({
          record: r1b,
          change: change(r1b, { type: "record.outcome", outcome: { outcome: "won", value: 10, note: null, occurred_at: stamp() } }),
        }),
      ).toBe("ok");
      const plan = { collection_id: c.id, records: 2, history_entries: 3, outcomes: 1, entity_links: 1 };
      expect(await s.collections.purgePlan(ws, c.id)).toEqual(plan);
      expect(await s.collections.get(ws, c.id)).toEqual(c);
      expect(await s.collections.purge(ws, c.id, 2)).toBe("version_conflict");
      expect(await s.records.get(ws, c.id, r1.id)).toEqual(r1b);
      expect(await s.collections.purge(ws, c.id, 1)).toEqual(plan);
      expect(await s.collections.get(ws, c.id)).toBeNull();
      expect(await s.records.get(ws, c.id, r1.id)).toBeNull();
      expect(await s.records.history(ws, c.id, r1.id, 10)).toEqual([]);
      expect(await s.collections.purgePlan(ws, c.id)).toBeNull();
      expect(await s.collections.purge(ws, c.id, 1)).toBe("not_found");
      expect(await s.records.get(ws, keep.id, kept.id)).toEqual(kept);
    });

    // ---- records ----

    test("RecordStore.insert() then get() returns it; another collection or workspace does not see it", async () => {
      const ws = await workspace();
      const c = await collection(ws);
      const r = await record(c, {
        fields: { company: "Zeta", amount: 12.5, tags: ["a", "b"], won: false },
        field_meta: { amount: { source: "crm", confidence: 0.9 } },
        entity_id: uuidv7(),
        drifted: true,
      });
      expect(await s.records.get(ws, c.id, r.id)).toEqual(r);
      expect(await s.records.get(ws, (await collection(ws)).id, r.id)).toBeNull();
      expect(await s.records.get(await workspace(), c.id, r.id)).toBeNull();
    });

    test("RecordStore.insert() into a collection that is gone is refused", async () => {
      const ws = await workspace();
      const c = collectionFixture(ws) as Collection;
      const r = recordOf(c);
      expect(await s.records.insert({ record: r, change: change(r) })).toBe("collection_not_found");
      expect(await s.records.get(ws, c.id, r.id)).toBeNull();
    });

    test("RecordStore.update() checks the version; of two concurrent writers of one version, one wins", async () => {
      const ws = await workspace();
      const c = await collection(ws);
      const r = await record(c);
      const [a, b] = [next(r, { status: "qualified" }), next(r, { status: "lost" })];
      const results = await Promise.all([
        s.records.update({ record: a, change: change(a) }),
        s.records.update({ record: b, change: change(b) }),
      ]);
      expect(results.sort()).toEqual(["ok", "version_conflict"]);
      const stored = await s.records.get(ws, c.id, r.id);
      expect([a, b]).toContainEqual(stored!);
      expect((await s.records.history(ws, c.id, r.id, 10)).map((h) => h.version)).toEqual([2, 1]);
      expect(await s.records.update({ record: next(r, {}), change: change(next(r, {})) })).toBe("version_conflict");
      const gone = next({ ...r, id: uuidv7() }, {});
      expect(await s.records.update({ record: gone, change: change(gone) })).toBe("not_found");
    });

    test("RecordStore.history() lists changes newest first, before a version when asked", async () => {
      const ws = await workspace();
      const c = await collection(ws);
      let r = await record(c);
      const changes: RecordChange[] = [];
      for (const status of ["qualified", "won"]) {
        const n = next(r, { status });
        const ch = change(n, {
          diff: [{ path: "status", before: r.status, after: status }],
          stage: { from: r.status, to: status },
          actor_id: uuidv7(),
          actor_kind: "agent",
        });
        expect(await s.records.update({ record: n, change: ch })).toBe("ok");
        changes.unshift(ch);
        r = n;
      }
      const all = await s.records.history(ws, c.id, r.id, 10);
      expect(all.slice(0, 2)).toEqual(changes);
      expect(all.map((h) => h.version)).toEqual([3, 2, 1]);
      expect((await s.records.history(ws, c.id, r.id, 1, 3)).map((h) => h.version)).toEqual([2]);
      expect(await s.records.history(await workspace(), c.id, r.id, 10)).toEqual([]);
    });

    test("RecordStore.delete() removes the record and its history, after the plan; a stale version is refused", async () => {
      const ws = await workspace();
      const c = await collection(ws);
      const r = await record(c);
      const n = next(r, { status: "won" });
      await s.records.update({
        record: n,
        change: change(n, { type: "record.outcome", outcome: { outcome: "won", value: null, note: "signed", occurred_at: stamp() } }),
      });
      const plan = { record_id: r.id, history_entries: 2, outcomes: 1 };
      expect(await s.records.deletePlan(ws, c.id, r.id)).toEqual(plan);
      expect(await s.records.delete(ws, c.id, r.id, 1)).toBe("version_conflict");
      expect(await s.records.delete(ws, c.id, r.id, 2)).toEqual(plan);
      expect(await s.records.get(ws, c.id, r.id)).toBeNull();
      expect(await s.records.history(ws, c.id, r.id, 10)).toEqual([]);
      expect(await s.records.delete(ws, c.id, r.id, null)).toBe("not_found");
      expect(await s.records.deletePlan(ws, c.id, r.id)).toBeNull();
    });

    /**
     * Queries, keyset walks and aggregates over `makeRows`' records, each compared with core's
     * reference meaning over the same records.
     */
    function agreesWithReference(
      title: string,
      over: Partial<Collection>,
      makeRows: () => Partial<CollectionRecord>[],
      filters: [string, FilterNode][],
      sorts: [string, RecordSort | undefined][],
      aggregates: [string, AggregateRecordsDto][],
    ) {
      describe(title, () => {
        let c: Collection;
        let rows: CollectionRecord[];
        beforeAll(async () => {
          const ws = await workspace();
          c = await collection(ws, over);
          rows = [];
          for (const r of makeRows()) rows.push(await record(c, r));
        });

        async function walk(filter: FilterNode | null, sort: CompiledSort, limit: number, words?: string[]): Promise<string[]> {
          const compiled = filter ? compileFilter(c.record_schema, filter) : null;
          const seen: string[] = [];
          let q: RecordQuery = { filter: compiled, sort, after: null, limit, ...(words ? { words } : {}) };
          for (let pages = 0; pages < 100; pages++) {
            const page = await s.records.query(c.workspace_id, c.id, q);
            expect(page.items.length).toBeLessThanOrEqual(limit);
            seen.push(...page.items.map((r) => r.id));
            if (!page.has_more) break;
            q = { ...q, after: positionOf(page.items.at(-1)!, sort) };
          }
          return seen;
        }
        const expected = (filter: FilterNode | null, sort: CompiledSort, words: string[] = []) =>
          rows
            .filter((r) => !filter || matches(r as never, compileFilter(c.record_schema, filter)))
            .filter((r) => words.every((w) => r.search_text.includes(w)))
            .sort((a, b) => compareRecords(a, b, sort))
            .map((r) => r.id);

        for (const [label, filter] of filters) {
          test(`filter: ${label}`, async () => {
            const sort = compileSort(c.record_schema, undefined);
            const want = expected(filter, sort);
            expect(await walk(filter, sort, 200)).toEqual(want);
          });
        }
        for (const [label, sort] of sorts) {
          test(`sort and keyset pages of 7: ${label}`, async () => {
            const compiled = compileSort(c.record_schema, sort);
            expect(await walk(null, compiled, 7)).toEqual(expected(null, compiled));
            const f: FilterNode = { field: "status", op: "in", value: ["lead", "won"] };
            expect(await walk(f, compiled, 5)).toEqual(expected(f, compiled));
          });
        }
        test("words: every word must occur in the record's text", async () => {
          const sort = compileSort(c.record_schema, undefined);
          expect(await walk(null, sort, 50, ["acme"])).toEqual(expected(null, sort, ["acme"]));
          expect(await walk(null, sort, 50, ["acme", "labs"])).toEqual(expected(null, sort, ["acme", "labs"]));
          expect(await walk(null, sort, 50, ["nothing-like-this"])).toEqual([]);
        });

        for (const [label, dto] of aggregates) {
          test(`aggregate: ${label}`, async () => {
            const { spec } = compileAggregate(c.record_schema, dto);
            const got = await s.records.aggregate(c.workspace_id, c.id, spec);
            const want = aggregateInMemory(rows, spec);
            const round = <G extends { key: unknown[]; values: unknown[] }>(g: G): G => ({
              ...g,
              values: g.values.map((v) => (typeof v === "number" ? Math.round(v * 1e6) / 1e6 : v)),
            });
            expect(got.map(round).sort((a, b) => JSON.stringify(a.key).localeCompare(JSON.stringify(b.key)))).toEqual(
              want.map(round).sort((a, b) => JSON.stringify(a.key).localeCompare(JSON.stringify(b.key))),
            );
            // In the reference order once sorted by it (the use case sorts; truncation relies on it).
            expect(got.sort(compareGroups).map((g) => g.key)).toEqual(want.map((g) => g.key));
          });
        }
        test("aggregate: at most max_groups + 1 groups, the largest ones, ties in key order", async () => {
          const dto = aggregates[0]![1];
          const { spec } = compileAggregate(c.record_schema, {
            group_by: dto.group_by ?? ["status"],
            metrics: [{ fn: "count" }],
            max_groups: 2,
          });
          const got = await s.records.aggregate(c.workspace_id, c.id, spec);
          expect(got.length).toBe(3);
          expect(got.sort(compareGroups).map((g) => [g.key, g.count])).toEqual(
            aggregateInMemory(rows, spec).slice(0, 3).map((g) => [g.key, g.count]),
          );
        });
      });
    }

    const companies = ["Acme", "acme labs", "Beta", "Gamma GmbH", "Zeta", "Éclair", "delta", "\uFF21 wide", "\u{1F600} smile"];
    agreesWithReference(
      "RecordStore.query() and aggregate() agree with core's reference",
      {},
      // Deterministic variety: missing values, wrong types (as after a schema edit), ties.
      () =>
        Array.from({ length: 60 }, (_, i) => {
          const fields: Record<string, unknown> = { company: companies[i % companies.length]! + (i % 3 === 0 ? ` ${i}` : "") };
          if (i % 5 !== 0) fields.amount = (i * 37) % 11 * 500 + (i % 2 ? 0.5 : 0);
          if (i % 7 === 0) fields.amount = "n/a";
          if (i % 4 === 0) fields.tags = i % 8 === 0 ? ["hot", "eu"] : ["eu"];
          if (i % 3 === 1) fields.won = i % 2 === 0;
          if (i % 6 !== 5) fields.close = `2026-0${(i % 9) + 1}-1${i % 10}`;
          return {
            fields,
            status: ["lead", "qualified", "won", "lost"][i % 4]!,
            entity_id: i % 9 === 0 ? uuidv7() : null,
            drifted: i % 10 === 0,
          };
        }),
      [
        ["eq status", { field: "status", op: "eq", value: "qualified" }],
        ["ne status", { field: "status", op: "ne", value: "lead" }],
        ["gte number (wrong types never match)", { field: "fields.amount", op: "gte", value: 2500 }],
        ["lt number", { field: "fields.amount", op: "lt", value: 1000 }],
        ["ne number (missing matches)", { field: "fields.amount", op: "ne", value: 500 }],
        ["in text", { field: "fields.company", op: "in", value: ["Beta", "Zeta"] }],
        ["nin text", { field: "fields.company", op: "nin", value: ["Beta", "Zeta"] }],
        ["contains text, any case", { field: "fields.company", op: "contains", value: "ACME" }],
        ["contains list element", { field: "fields.tags", op: "contains", value: "hot" }],
        ["exists true", { field: "fields.won", op: "exists", value: true }],
        ["exists false", { field: "fields.amount", op: "exists", value: false }],
        ["eq boolean", { field: "fields.won", op: "eq", value: false }],
        ["gt text by code point", { field: "fields.company", op: "gt", value: "Z" }],
        ["lt text: a character above U+FFFF sorts after U+FFFF", { field: "fields.company", op: "lt", value: "\uFFFF" }],
        ["date range", {
          and: [{ field: "fields.close", op: "gte", value: "2026-03-01" }, { field: "fields.close", op: "lt", value: "2026-07-01" }],
        }],
        ["drifted column", { field: "drifted", op: "eq", value: true }],
        ["entity_id exists", { field: "entity_id", op: "exists", value: true }],
        ["and/or tree", {
          or: [{ and: [{ field: "status", op: "eq", value: "won" }, { field: "fields.amount", op: "gt", value: 1000 }] }, {
            field: "fields.tags",
            op: "contains",
            value: "eu",
          }],
        }],
      ],
      [
        ["default (newest first)", undefined],
        ["created_at asc", { field: "created_at", dir: "asc" }],
        ["amount desc (missing last)", { field: "fields.amount", dir: "desc" }],
        ["amount asc (missing last)", { field: "fields.amount", dir: "asc" }],
        ["company asc", { field: "fields.company", dir: "asc" }],
        ["status desc", { field: "status", dir: "desc" }],
        ["close asc", { field: "fields.close" }],
      ],
      [
        ["count by status", { group_by: ["status"], metrics: [{ fn: "count" }] }],
        ["sum/avg/min/max of amount by status", {
          group_by: ["status"],
          metrics: [{ fn: "count" }, { fn: "sum", field: "fields.amount" }, { fn: "avg", field: "fields.amount" }, {
            fn: "min",
            field: "fields.amount",
          }, { fn: "max", field: "fields.amount" }],
        }],
        ["min/max of a date, no groups", { metrics: [{ fn: "min", field: "fields.close" }, { fn: "max", field: "fields.close" }] }],
        ["by a boolean and status, filtered", {
          group_by: ["fields.won", "status"],
          metrics: [{ fn: "count" }, { fn: "sum", field: "fields.amount" }],
          filter: { field: "fields.company", op: "contains", value: "a" },
        }],
        ["by a text field with missing values", { group_by: ["fields.close"], metrics: [{ fn: "count" }], max_groups: 1000 }],
      ],
    );

    // An open collection: no declared fields, so every field holds values of any JSON type.
    const mixed: unknown[] = [
      5,
      "5",
      "Acme",
      "acme labs",
      true,
      false,
      2.5,
      -3,
      "Zeta",
      "\u{1F600}",
      ["eu", 5, "5"],
      { city: "Berlin" },
      ["hot", { n: ["nested", 5] }],
      "",
      0,
      [null, 1],
      1e21,
    ];
    agreesWithReference(
      "RecordStore.query() and aggregate() agree with core's reference on an open collection of mixed-type values",
      { record_schema: { fields: {}, stages: ["lead", "qualified", "won", "lost"] } },
      () =>
        Array.from({ length: 60 }, (_, i) => {
          const fields: Record<string, unknown> = {};
          if (i % 6 !== 5) fields.v = mixed[(i * 7) % mixed.length];
          if (i % 4 !== 3) fields.company = companies[i % companies.length]! + (i % 3 === 0 ? ` ${i}` : "");
          if (i % 3 !== 0) fields.w = mixed[(i * 5) % mixed.length];
          return { fields, status: ["lead", "qualified", "won", "lost"][i % 4]!, drifted: i % 10 === 0 };
        }),
      [
        ["eq number: 5 matches the number only", { field: "fields.v", op: "eq", value: 5 }],
        ['eq text: "5" matches the text only', { field: "fields.v", op: "eq", value: "5" }],
        ["eq boolean", { field: "fields.v", op: "eq", value: false }],
        ["ne number (missing, other types and lists match)", { field: "fields.v", op: "ne", value: 5 }],
        ["in of mixed types", { field: "fields.v", op: "in", value: [5, "Acme", true] }],
        ["nin of mixed types", { field: "fields.v", op: "nin", value: [5, "Acme", true] }],
        ["gt number: strings and booleans never match", { field: "fields.v", op: "gt", value: 0 }],
        ["lte text: numbers never match", { field: "fields.v", op: "lte", value: "Acme" }],
        ["contains text: substrings of strings and equal list elements", { field: "fields.v", op: "contains", value: "5" }],
        ["contains number: list elements only", { field: "fields.v", op: "contains", value: 5 }],
        ["contains text in lists and strings, any case", { field: "fields.v", op: "contains", value: "EU" }],
        ["exists true (lists holding null count)", { field: "fields.v", op: "exists", value: true }],
        ["exists false", { field: "fields.v", op: "exists", value: false }],
        ["an undeclared text field", { field: "fields.company", op: "contains", value: "acme" }],
        ["and/or tree over undeclared fields", {
          or: [{ and: [{ field: "fields.v", op: "gte", value: 1 }, { field: "status", op: "ne", value: "lost" }] }, {
            field: "fields.w",
            op: "eq",
            value: "Zeta",
          }],
        }],
      ],
      [
        ["v asc: numbers, strings, booleans, then the rest", { field: "fields.v", dir: "asc" }],
        ["v desc: booleans, strings, numbers, then the rest", { field: "fields.v", dir: "desc" }],
        ["w asc", { field: "fields.w", dir: "asc" }],
        ["company desc", { field: "fields.company", dir: "desc" }],
      ],
      [
        ["count by a mixed-type field", { group_by: ["fields.v"], metrics: [{ fn: "count" }], max_groups: 1000 }],
        ["sum/avg/min/max of a mixed-type field by status", {
          group_by: ["status"],
          metrics: [{ fn: "count" }, { fn: "sum", field: "fields.v" }, { fn: "avg", field: "fields.v" }, { fn: "min", field: "fields.v" }, {
            fn: "max",
            field: "fields.v",
          }],
        }],
        ["min/max where only strings or nothing", {
          group_by: ["fields.w"],
          metrics: [{ fn: "min", field: "fields.company" }, { fn: "max", field: "fields.company" }],
          max_groups: 1000,
        }],
        ["by two mixed-type fields, filtered", {
          group_by: ["fields.v", "fields.w"],
          metrics: [{ fn: "count" }, { fn: "max", field: "fields.w" }],
          filter: { field: "status", op: "ne", value: "lost" },
          max_groups: 1000,
        }],
      ],
    );

    test("RecordStore.query() keyset pages stay exact while records are inserted (none skipped, none twice)", async () => {
      const ws = await workspace();
      const c = await collection(ws);
      const before: string[] = [];
      for (let i = 0; i < 25; i++) before.push((await record(c, { fields: { company: `c${i}`, amount: i % 5 } })).id);
      for (const sort of [compileSort(c.record_schema, undefined), compileSort(c.record_schema, { field: "fields.amount", dir: "asc" })]) {
        const seen: string[] = [];
        let q: RecordQuery = { filter: null, sort, after: null, limit: 4 };
        for (;;) {
          const page = await s.records.query(ws, c.id, q);
          seen.push(...page.items.map((r) => r.id));
          // a concurrent writer adds records between pages
          await record(c, { fields: { company: "late", amount: 2 } });
          if (!page.has_more) break;
          q = { ...q, after: positionOf(page.items.at(-1)!, sort) };
        }
        expect(new Set(seen).size).toBe(seen.length);
        for (const id of before) expect(seen).toContain(id);
      }
    });

    // ---- entities ----

    test("EntityStore.upsert() inserts, then merges into the entity of the same kind and key", async () => {
      const ws = await workspace();
      const e = entity(ws, { dedup_key: "Acme.com", dedup_norm: "acme.com", attributes: { size: 10 } });
      expect(await s.entities.upsert(e, () => null)).toEqual({ entity: e, created: true, previous: null });
      const again = entity(ws, { dedup_key: "ACME.com", dedup_norm: "acme.com" });
      const merged = { ...e, attributes: { size: 12 }, version: 2, updated_at: stamp() };
      expect(
        await s.entities.upsert(again, (x) => ({ ...x, attributes: { size: 12 }, version: x.version + 1, updated_at: merged.updated_at })),
      ).toEqual({
        entity: merged,
        created: false,
        previous: e,
      });
      expect(await s.entities.get(ws, e.id)).toEqual(merged);
      expect(await s.entities.get(ws, again.id)).toBeNull();
      // unchanged: merge says null
      expect(await s.entities.upsert(entity(ws, { dedup_key: "acme.com", dedup_norm: "acme.com" }), () => null)).toEqual({
        entity: merged,
        created: false,
        previous: merged,
      });
      // another kind, or another workspace, is another entity
      expect((await s.entities.upsert(entity(ws, { kind: "person", dedup_key: "acme.com", dedup_norm: "acme.com" }), () => null)).created)
        .toBe(true);
      expect((await s.entities.upsert(entity(await workspace(), { dedup_key: "acme.com", dedup_norm: "acme.com" }), () => null)).created)
        .toBe(true);
    });

    test("EntityStore.update() writes over the version it read, once; another workspace's entity is not found", async () => {
      const ws = await workspace();
      const e = entity(ws, { kind: "person", dedup_key: "sample:p-9", dedup_norm: "sample:p-9", attributes: { email: null, size: 1 } });
      await s.entities.upsert(e, () => null);
      const next = { ...e, name: "Ada L.", attributes: { email: "ada@b.example", size: 1 }, version: 2, updated_at: stamp() };
      expect(await s.entities.update(next)).toBe("ok");
      expect(await s.entities.get(ws, e.id)).toEqual(next);
      // A writer that read version 1 too loses; the entity stays as the winner wrote it.
      expect(await s.entities.update({ ...e, attributes: { email: "other@b.example" }, version: 2 })).toBe("version_conflict");
      expect(await s.entities.get(ws, e.id)).toEqual(next);
      // Of concurrent writers over one version exactly one lands.
      const racers = await Promise.all(
        Array.from({ length: 8 }, (_, i) => s.entities.update({ ...next, attributes: { n: i }, version: 3, updated_at: stamp() })),
      );
      expect(racers.filter((r) => r === "ok")).toHaveLength(1);
      expect((await s.entities.get(ws, e.id))?.version).toBe(3);
      expect(await s.entities.update({ ...next, workspace_id: await workspace(), version: 4 })).toBe("not_found");
      expect(await s.entities.update({ ...next, id: uuidv7(), version: 2 })).toBe("not_found");
      // Its key still finds it.
      expect((await s.entities.byDedupKeys(ws, "person", ["sample:p-9"])).map((x) => x.id)).toEqual([e.id]);
    });

    test("RecordStore.getMany() reads records of one collection by id; others' are absent", async () => {
      const ws = await workspace();
      const c = await collection(ws);
      const other = await collection(ws);
      const a = await record(c);
      const b = await record(c);
      const elsewhere = await record(other);
      const found = await s.records.getMany(ws, c.id, [a.id, b.id, elsewhere.id, uuidv7(), a.id]);
      expect(found.map((r) => r.id).sort()).toEqual([a.id, b.id].sort());
      expect(found.find((r) => r.id === b.id)).toEqual(b);
      expect(await s.records.getMany(await workspace(), c.id, [a.id])).toEqual([]);
    });

    test("RecordStore.byEntities() finds a collection's records of some entities, in its workspace only", async () => {
      const ws = await workspace();
      const c = await collection(ws);
      const other = await collection(ws);
      const [e1, e2, e3] = [uuidv7(), uuidv7(), uuidv7()];
      const a = await record(c, { entity_id: e1 });
      const b = await record(c, { entity_id: e2 });
      await record(c, { entity_id: null });
      await record(other, { entity_id: e1 });
      const found = await s.records.byEntities(ws, c.id, [e1, e2, e3, e1]);
      expect(found.map((r) => r.id).sort()).toEqual([a.id, b.id].sort());
      expect(found.find((r) => r.id === a.id)).toEqual(a);
      expect(await s.records.byEntities(await workspace(), c.id, [e1])).toEqual([]);
      expect(await s.records.byEntities(ws, c.id, [])).toEqual([]);
    });

    test("EntityStore.byDedupKeys() finds entities of one kind by key, in its workspace only", async () => {
      const ws = await workspace();
      const a = entity(ws, { dedup_key: "a.example", dedup_norm: "a.example" });
      const b = entity(ws, { dedup_key: "b.example", dedup_norm: "b.example" });
      const person = entity(ws, { kind: "person", dedup_key: "a.example", dedup_norm: "a.example" });
      const elsewhere = entity(await workspace(), { dedup_key: "a.example", dedup_norm: "a.example" });
      for (const e of [a, b, person, elsewhere]) await s.entities.upsert(e, () => null);
      const found = await s.entities.byDedupKeys(ws, "company", ["a.example", "b.example", "c.example", "a.example"]);
      expect(found.map((e) => e.id).sort()).toEqual([a.id, b.id].sort());
      expect((await s.entities.byDedupKeys(ws, "person", ["a.example"])).map((e) => e.id)).toEqual([person.id]);
      expect(await s.entities.byDedupKeys(ws, "company", [])).toEqual([]);
    });

    test("EntityStore.upsert() without a key always inserts", async () => {
      const ws = await workspace();
      const [a, b] = [entity(ws), entity(ws)];
      expect((await s.entities.upsert(a, () => null)).created).toBe(true);
      expect((await s.entities.upsert(b, () => null)).created).toBe(true);
      expect((await s.entities.getMany(ws, [a.id, b.id, uuidv7()])).map((x) => x.id).sort()).toEqual([a.id, b.id].sort());
    });

    test("EntityStore.upsert(): concurrent upserts of one (kind, key) make one entity that holds every merge", async () => {
      const ws = await workspace();
      const results = await Promise.all(
        Array.from(
          { length: 8 },
          (_, i) =>
            s.entities.upsert(entity(ws, { dedup_key: "k", dedup_norm: "k", attributes: { [`a${i}`]: i } }), (x) => ({
              ...x,
              attributes: { ...x.attributes, [`a${i}`]: i },
              version: x.version + 1,
              updated_at: stamp(),
            })),
        ),
      );
      expect(results.filter((r) => r.created).length).toBe(1);
      expect(new Set(results.map((r) => r.entity.id)).size).toBe(1);
      const list = await s.entities.list(ws, "company", { limit: 50 });
      expect(list.items.length).toBe(1);
      expect(Object.keys(list.items[0]!.attributes).sort()).toEqual(["a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7"]);
      expect(list.items[0]!.version).toBe(8);
    });

    test("EntityStore.list() filters by kind, newest first, paged by id", async () => {
      const ws = await workspace();
      const made: Entity[] = [];
      for (const kind of ["company", "person", "company", "company"]) {
        const e = entity(ws, { kind });
        await s.entities.upsert(e, () => null);
        made.push(e);
      }
      const companies = made.filter((e) => e.kind === "company").reverse();
      const first = await s.entities.list(ws, "company", { limit: 2 });
      expect(first).toEqual({ items: companies.slice(0, 2), has_more: true });
      expect(await s.entities.list(ws, "company", { limit: 2, afterId: companies[1]!.id })).toEqual({
        items: companies.slice(2),
        has_more: false,
      });
      expect((await s.entities.list(ws, null, { limit: 10 })).items.length).toBe(4);
      expect((await s.entities.list(await workspace(), null, { limit: 10 })).items).toEqual([]);
    });

    test("WorkspaceStore.delete() removes the workspace's collections, records and entities", async () => {
      const b = await bootstrapped(s);
      const ws = b.workspace.id;
      const c = await collection(ws);
      const r = await record(c);
      const e = entity(ws, { dedup_key: "x", dedup_norm: "x" });
      await s.entities.upsert(e, () => null);
      await s.workspaces.delete(ws);
      expect(await s.collections.get(ws, c.id)).toBeNull();
      expect(await s.records.get(ws, c.id, r.id)).toBeNull();
      expect(await s.entities.get(ws, e.id)).toBeNull();
    });
  });
}
