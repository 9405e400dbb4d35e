import type { TestApi } from "./kit/test-api.ts";
import type { Collection, CollectionRecord } from "../../core/collections/model.ts";
import { aggregateInMemory, compareGroups, GROUPS_LIMIT } from "../../core/collections/record-aggregate.ts";
import { declaredRollups } from "../../core/collections/record-rollup.ts";
import { recordSearchText } from "../../core/collections/record-text.ts";
import { uuidv7 } from "../../core/kernel/ids.ts";
import type { Stores } from "../../core/stores.ts";
import { bootstrapped, collectionFixture, recordChangeFixture, recordFixture, stamp } from "./fixtures.ts";

/**
 * The rollups of declared aggregates (ADR 039): `RecordStore.aggregateRollup` answers either null
 * (the store keeps no such rollup) or exactly what core's `aggregateInMemory` computes over the
 * records there are, after any mix of inserts, updates and deletes, after the declarations change
 * (the rollup rebuilt from the records), and never after a purge.
 */
export function runRecordRollupStoresContract(name: string, open: () => Promise<Stores>, api: TestApi) {
  const { afterAll, beforeAll, describe, expect, test } = api;
  describe(`${name}: rollups of declared aggregates`, () => {
    let s: Stores;
    beforeAll(async () => {
      s = await open();
    });
    afterAll(async () => {
      await s?.close();
    });

    const byStatus = {
      name: "by_status",
      group_by: ["status"],
      metrics: [{ fn: "count" as const }, { fn: "sum" as const, field: "fields.amount" }, { fn: "avg" as const, field: "fields.amount" }],
    };
    const byWonAndCompany = { name: "by_won", group_by: ["fields.won", "fields.company"], metrics: [{ fn: "count" as const }] };
    const views = (aggregates: unknown[]) => [{ name: "Pipeline", kind: "board", aggregates }, { name: "All", kind: "table" }];

    /** A small deterministic PRNG (mulberry32): the same writes on every backend. */
    function random(seed: number) {
      let a = seed;
      return () => {
        a = (a + 0x6d2b79f5) | 0;
        let t = Math.imul(a ^ (a >>> 15), 1 | a);
        t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
      };
    }

    function fieldsOf(rnd: () => number): Record<string, unknown> {
      const f: Record<string, unknown> = { company: ["Acme", "Beta", "Gamma"][Math.floor(rnd() * 3)]! };
      const a = rnd();
      // Numbers (quarters: exact in binary), none, or a value of another type (as after a schema edit).
      if (a < 0.7) f.amount = Math.floor(rnd() * 4000) / 4;
      else if (a < 0.8) f.amount = "n/a";
      const w = rnd();
      if (w < 0.4) f.won = true;
      else if (w < 0.7) f.won = false;
      return f;
    }

    async function expectRollupsAgree(c: Collection, live: Map<string, CollectionRecord>) {
      for (const r of declaredRollups(c)) {
        const spec = { ...r.spec, maxGroups: GROUPS_LIMIT.max };
        const want = aggregateInMemory(live.values(), spec);
        const got = await s.records.aggregateRollup(c.workspace_id, c.id, r, spec);
        if (got !== null) expect({ rollup: r.id, groups: got.sort(compareGroups) }).toEqual({ rollup: r.id, groups: want });
        // Whichever way the store answers, the scan says the same.
        expect((await s.records.aggregate(c.workspace_id, c.id, spec)).sort(compareGroups)).toEqual(want);
      }
    }

    test("a rollup agrees with the reference after random inserts, updates and deletes, after a redeclaration, and not after a purge", async () => {
      const ws = (await bootstrapped(s)).workspace.id;
      let c = collectionFixture(ws, { views: views([byStatus]) }) as Collection;
      await s.collections.insert(c);
      // Records of another collection of the workspace count in neither.
      const other = collectionFixture(ws, { views: views([byStatus]) }) as Collection;
      await s.collections.insert(other);
      const stray = recordFixture(other, { fields: { company: "Other", amount: 1000 } });
      expect(await s.records.insert({ record: stray, change: recordChangeFixture(stray) })).toBe("ok");

      const rnd = random(39);
      const live = new Map<string, CollectionRecord>();
      const stages = c.record_schema.stages;
      for (let step = 0; step < 90; step++) {
        const ids = [...live.keys()];
        const op = rnd();
        if (ids.length < 5 || op < 0.5) {
          const fields = fieldsOf(rnd);
          const r = recordFixture(c, { fields, status: stages[Math.floor(rnd() * stages.length)]! });
          expect(await s.records.insert({ record: r, change: recordChangeFixture(r) })).toBe("ok");
          live.set(r.id, r);
        } else if (op < 0.85) {
          const cur = live.get(ids[Math.floor(rnd() * ids.length)]!)!;
          // Half the updates leave every figure as it was (a rename, say).
          const fields = rnd() < 0.5 ? fieldsOf(rnd) : { ...cur.fields, company: cur.fields.company };
          const status = rnd() < 0.5 ? stages[Math.floor(rnd() * stages.length)]! : cur.status;
          const n: CollectionRecord = {
            ...cur,
            fields,
            status,
            search_text: recordSearchText(fields),
            version: cur.version + 1,
            updated_at: stamp(),
          };
          expect(await s.records.update({ record: n, change: recordChangeFixture(n) })).toBe("ok");
          live.set(n.id, n);
        } else {
          const id = ids[Math.floor(rnd() * ids.length)]!;
          expect(await s.records.delete(ws, c.id, id, null)).not.toBe("not_found");
          live.delete(id);
        }
        if (step % 30 === 29) await expectRollupsAgree(c, live);
      }

      // Redeclared: one rollup changes shape (avg dropped: the same sums, still rebuilt), one is new.
      const next: Collection = {
        ...c,
        views: views([{ ...byStatus, metrics: byStatus.metrics.slice(0, 2) }, byWonAndCompany]),
        version: c.version + 1,
        updated_at: stamp(),
      };
      expect(await s.collections.update(next)).toBe("ok");
      c = next;
      await expectRollupsAgree(c, live);
      const gone = { ...live.values().next().value! };
      expect(await s.records.delete(ws, c.id, gone.id, null)).not.toBe("not_found");
      live.delete(gone.id);
      await expectRollupsAgree(c, live);
      // A shape the collection does not declare is not answered from a rollup.
      const [first] = declaredRollups(c);
      expect(await s.records.aggregateRollup(ws, c.id, { id: first!.id, shape: { keys: [], sums: [] } }, first!.spec)).toBeNull();

      const plan = await s.collections.purge(ws, c.id, c.version);
      expect(plan).not.toBe("not_found");
      for (const r of declaredRollups(c)) expect(await s.records.aggregateRollup(ws, c.id, r, r.spec)).toBeNull();
      // The other collection's rollup still has its one record.
      await expectRollupsAgree(other, new Map([[stray.id, stray]]));
      // Another workspace sees nothing.
      const [r0] = declaredRollups(other);
      expect(await s.records.aggregateRollup((await bootstrapped(s)).workspace.id, other.id, r0!, r0!.spec)).toBeNull();
      expect(await s.records.aggregateRollup(ws, uuidv7(), r0!, r0!.spec)).toBeNull();
    });

    test("a collection declaring an aggregate over records it already has builds the rollup from them", async () => {
      const ws = (await bootstrapped(s)).workspace.id;
      const c = collectionFixture(ws) as Collection;
      await s.collections.insert(c);
      const rnd = random(7);
      const live = new Map<string, CollectionRecord>();
      for (let i = 0; i < 25; i++) {
        const r = recordFixture(c, { fields: fieldsOf(rnd), status: c.record_schema.stages[i % 4]! });
        expect(await s.records.insert({ record: r, change: recordChangeFixture(r) })).toBe("ok");
        live.set(r.id, r);
      }
      const declared: Collection = { ...c, views: views([byStatus, byWonAndCompany]), version: 2, updated_at: stamp() };
      expect(await s.collections.update(declared)).toBe("ok");
      await expectRollupsAgree(declared, live);
      // Undeclared again: no rollup answers.
      const plain: Collection = { ...declared, views: [], version: 3, updated_at: stamp() };
      expect(await s.collections.update(plain)).toBe("ok");
      for (const r of declaredRollups(declared)) expect(await s.records.aggregateRollup(ws, c.id, r, r.spec)).toBeNull();
    });
  });
}
