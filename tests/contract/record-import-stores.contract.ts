import type { TestApi } from "./kit/test-api.ts";
import type { Collection, CollectionRecord } from "../../core/collections/model.ts";
import type { RecordImportBatch, RecordImportJob, RecordImportUpdate, RecordWrite } from "../../core/collections/ports.ts";
import { recordSearchText } from "../../core/collections/record-text.ts";
import type { Stores } from "../../core/stores.ts";
import { bootstrapped, collectionFixture, recordChangeFixture, recordFixture, stamp } from "./fixtures.ts";

/**
 * `RecordStore.importRecords` (docs/decisions/063-records-csv-and-ndjson.md): an import's batches
 * of creates and updates are written all of them or none. After any refusal (a record not at its
 * version, the collection moved, a limit) or batches that throw midway, the collection holds
 * exactly what it held before, history included; after success, every write with its entry.
 */
export function runRecordImportStoresContract(name: string, open: () => Promise<Stores>, api: TestApi) {
  const { afterAll, beforeAll, describe, expect, test } = api;
  describe(`${name}: records imports`, () => {
    let s: Stores;
    beforeAll(async () => {
      s = await open();
    });
    afterAll(async () => {
      await s?.close();
    });

    async function setUp(existing = 2) {
      const ws = (await bootstrapped(s)).workspace.id;
      const c = collectionFixture(ws) as Collection;
      await s.collections.insert(c);
      const records: CollectionRecord[] = [];
      for (let i = 0; i < existing; i++) {
        const r = recordFixture(c, { fields: { company: `Old ${i}` } });
        expect(await s.records.insert({ record: r, change: recordChangeFixture(r) })).toBe("ok");
        records.push(r);
      }
      return { c, records };
    }

    const create = (c: Collection, company: string): RecordWrite => {
      const r = recordFixture(c, { fields: { company } });
      return { record: r, change: recordChangeFixture(r) };
    };
    const update = (r: CollectionRecord, company: string | null): RecordImportUpdate => ({
      id: r.id,
      version: r.version,
      next(current) {
        if (company === null) return null;
        const fields = { ...current.fields, company };
        const next = { ...current, fields, search_text: recordSearchText(fields), version: current.version + 1, updated_at: stamp() };
        return { record: next, change: recordChangeFixture(next) };
      },
    });
    async function* batches(list: RecordImportBatch[], failAfter = Infinity): AsyncGenerator<RecordImportBatch> {
      let n = 0;
      for (const b of list) {
        if (n++ >= failAfter) throw new Error("the file could not be read any further");
        yield b;
      }
    }
    const job = (c: Collection, list: AsyncIterable<RecordImportBatch>, over: Partial<RecordImportJob> = {}): RecordImportJob => ({
      collectionVersion: c.version,
      batches: list,
      claim: null,
      ...over,
    });
    /** Everything the collection holds: its records and each one's history. */
    async function state(c: Collection) {
      const page = await s.records.query(c.workspace_id, c.id, {
        filter: null,
        sort: { operand: null, dir: "asc" },
        after: null,
        limit: 200,
      });
      return await Promise.all(
        page.items.map(async (r) => ({ r, history: (await s.records.history(c.workspace_id, c.id, r.id, 50)).map((h) => h.version) })),
      );
    }

    test("importRecords() writes every batch's creates and updates with their history entries, and counts unchanged ones", async () => {
      const { c, records } = await setUp(3);
      const created = [create(c, "New 1"), create(c, "New 2"), create(c, "New 3")];
      const outcome = await s.records.importRecords(
        c.workspace_id,
        c.id,
        job(
          c,
          batches([
            { creates: created.slice(0, 2), updates: [update(records[0]!, "Changed 0"), update(records[1]!, null)] },
            { creates: created.slice(2), updates: [update(records[2]!, "Changed 2")] },
          ]),
        ),
      );
      expect(outcome).toEqual({ written: { created: 3, updated: 2, unchanged: 1 } });
      const after = await state(c);
      expect(after.map((x) => [x.r.fields.company, x.r.version, x.history])).toEqual([
        ["Changed 0", 2, [2, 1]],
        ["Old 1", 1, [1]],
        ["Changed 2", 2, [2, 1]],
        ["New 1", 1, [1]],
        ["New 2", 1, [1]],
        ["New 3", 1, [1]],
      ]);
    });

    test("importRecords() whose batches throw midway leaves the collection as it was, and the error reaches the caller", async () => {
      const { c, records } = await setUp();
      const before = await state(c);
      let error: unknown;
      try {
        await s.records.importRecords(
          c.workspace_id,
          c.id,
          job(
            c,
            batches([{ creates: [create(c, "A"), create(c, "B")], updates: [update(records[0]!, "X")] }, {
              creates: [create(c, "C")],
              updates: [],
            }], 1),
          ),
        );
      } catch (e) {
        error = e;
      }
      expect((error as Error)?.message).toBe("the file could not be read any further");
      expect(await state(c)).toEqual(before);
    });

    test("importRecords() with a record no longer at its version (or gone) is a conflict and writes nothing, earlier batches included", async () => {
      const { c, records } = await setUp();
      const before = await state(c);
      const stale = { ...records[1]!, version: 7 };
      const outcome = await s.records.importRecords(
        c.workspace_id,
        c.id,
        job(
          c,
          batches([
            { creates: [create(c, "A")], updates: [update(records[0]!, "X")] },
            { creates: [create(c, "B")], updates: [update(stale, "Y")] },
          ]),
        ),
      );
      expect(outcome).toEqual({ conflict: records[1]!.id, current_version: 1 });
      expect(await state(c)).toEqual(before);
      const gone = { ...records[0]!, id: recordFixture(c).id };
      expect(
        await s.records.importRecords(c.workspace_id, c.id, job(c, batches([{ creates: [create(c, "C")], updates: [update(gone, "Z")] }]))),
      )
        .toEqual({ conflict: gone.id, current_version: null });
      expect(await state(c)).toEqual(before);
    });

    test("importRecords() racing an update of one of its records: exactly one of the two writes it, and a refused import writes nothing", async () => {
      for (let round = 0; round < 10; round++) {
        const { c, records } = await setUp(1);
        const r = records[0]!;
        const fields = { company: "Raced" };
        const next = { ...r, fields, search_text: recordSearchText(fields), version: 2, updated_at: stamp() };
        const [imported, updated] = await Promise.all([
          s.records.importRecords(
            c.workspace_id,
            c.id,
            job(c, batches([{ creates: [create(c, "A")], updates: [] }, { creates: [create(c, "B")], updates: [update(r, "Imported")] }])),
          ),
          s.records.update({ record: next, change: recordChangeFixture(next) }),
        ]);
        const after = await state(c);
        const held = after.find((x) => x.r.id === r.id)!;
        expect(held.r.version).toBe(2);
        expect(held.history).toEqual([2, 1]);
        if (typeof imported === "object" && "written" in imported) {
          expect({ round, updated }).toEqual({ round, updated: "version_conflict" });
          expect(held.r.fields.company).toBe("Imported");
          expect(after.map((x) => x.r.fields.company).toSorted()).toEqual(["A", "B", "Imported"]);
        } else {
          expect({ round, imported, updated }).toEqual({ round, imported: { conflict: r.id, current_version: 2 }, updated: "ok" });
          expect(after.map((x) => x.r.fields.company)).toEqual(["Raced"]);
        }
      }
    });

    test("importRecords() against a collection that moved on (or is gone) writes nothing", async () => {
      const { c } = await setUp();
      const before = await state(c);
      const moved = await s.records.importRecords(
        c.workspace_id,
        c.id,
        job(c, batches([{ creates: [create(c, "A")], updates: [] }]), {
          collectionVersion: c.version + 1,
        }),
      );
      expect(moved).toBe("collection_changed");
      expect(await state(c)).toEqual(before);
      const other = collectionFixture(c.workspace_id) as Collection;
      const missing = await s.records.importRecords(
        c.workspace_id,
        other.id,
        job(other, batches([{ creates: [create(other, "A")], updates: [] }])),
      );
      expect(missing).toBe("collection_not_found");
    });
  });
}
