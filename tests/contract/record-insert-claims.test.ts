import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { openPgliteStores, openPostgresStores } from "../../adapters/postgres/mod.ts";
import type { Collection, CollectionRecord } from "../../core/collections/model.ts";
import type { RecordStore } from "../../core/collections/ports.ts";
import { DEFAULT_SORT } from "../../core/collections/record-sort.ts";
import { uuidv7 } from "../../core/kernel/ids.ts";
import type { Stores } from "../../core/stores.ts";
import type { Principal } from "../../core/access/principal.ts";
import { API_KEY_SCOPES } from "../../core/access/scopes.ts";
import { createSecretBox } from "../../core/access/secret-box.ts";
import { planLimitsGate } from "../../core/billing/gate.ts";
import { createCollection, purgeCollection, setCollectionStatus, updateCollection } from "../../core/collections/collections.ts";
import { createRecord } from "../../core/collections/records.ts";
import type { ComposedDeps } from "../../core/deps.ts";
import { systemClock } from "../../core/kernel/clock.ts";
import { isAppError } from "../../core/kernel/errors.ts";
import { freshDatabase, sharedPostgres } from "../support/postgres-server.ts";
import { bootstrapped, collectionFixture, recordChangeFixture, recordFixture } from "./fixtures.ts";

/**
 * The SQL stores' record insert that claims the plan's unit of `records` in the same statement
 * (ADR 058, `RecordStore.insertClaiming`): the record and the count go together or not at all,
 * exactly under concurrency, with a counter already there or seeded by the first create. The
 * gate's behaviour over it (402 with the count) is the billing contract's, on every backend.
 */
for (const backend of ["pglite", "postgres"] as const) {
  describe(`${backend}: a record insert that claims its plan unit`, () => {
    let s: Stores;
    // On PostgreSQL, three stores on their own pools: three server processes, whose creates take
    // turns each in its own process and meet only at the database. Calls go round them.
    let processes: Stores[] = [];
    let turn = 0;
    let records: Pick<Required<RecordStore>, "insertClaiming">;
    beforeAll(async () => {
      if (backend === "pglite") processes = [await openPgliteStores()];
      else {
        const url = await freshDatabase(await sharedPostgres());
        for (let i = 0; i < 3; i++) processes.push(await openPostgresStores(url));
      }
      s = processes[0]!;
      if (!s.records.insertClaiming) throw new Error("the SQL record store claims in its insert");
      records = { insertClaiming: (...args) => processes[turn++ % processes.length]!.records.insertClaiming!(...args) };
    }, 120_000);
    afterAll(async () => {
      for (const p of processes) await p.close();
    });

    const collection = async () => {
      const ws = (await bootstrapped(s)).workspace.id;
      const c = collectionFixture(ws) as Collection;
      await s.collections.insert(c);
      return c;
    };
    const write = (c: Collection, over: Partial<CollectionRecord> = {}) => {
      const record = recordFixture(c, over);
      return { record, change: recordChangeFixture(record) };
    };
    const claiming = (c: Collection, limit: number | null) => records.insertClaiming(write(c), { kind: "records", limit });
    const stored = async (c: Collection) =>
      (await s.records.query(c.workspace_id, c.id, { filter: null, sort: DEFAULT_SORT, after: null, limit: 200 })).items.length;
    const used = async (c: Collection) => (await s.planUsage.usage(c.workspace_id)).records;

    test("without a limit the first create seeds the counter from the records already stored, and counts itself", async () => {
      const c = await collection();
      for (let i = 0; i < 3; i++) expect(await s.records.insert(write(c))).toBe("ok");
      expect(await claiming(c, null)).toBe("ok");
      expect(await claiming(c, null)).toBe("ok");
      expect(await used(c)).toBe(5);
      expect(await stored(c)).toBe(5);
    });

    test("32 concurrent first creates without a limit, no counter yet: every record stored and counted once (5 workspaces)", async () => {
      // Several workspaces: first creates racing to seed the counter meet in some of them, not always in one.
      for (let k = 0; k < 5; k++) {
        const c = await collection();
        for (let i = 0; i < 3; i++) expect(await s.records.insert(write(c))).toBe("ok");
        const outcomes = await Promise.all(Array.from({ length: 32 }, () => claiming(c, null)));
        expect(outcomes.filter((o) => o !== "ok")).toEqual([]);
        expect([await used(c), await stored(c)]).toEqual([35, 35]);
      }
    });

    test("20 concurrent creates at limit − 1: exactly one stored and counted; the others refused with the count, nothing written", async () => {
      const c = await collection();
      for (let i = 0; i < 4; i++) expect(await claiming(c, 5)).toBe("ok");
      const outcomes = await Promise.all(Array.from({ length: 20 }, () => claiming(c, 5)));
      expect(outcomes.filter((o) => o === "ok").length).toBe(1);
      expect(outcomes.filter((o) => o !== "ok")).toEqual(Array.from({ length: 19 }, () => ({ refused: "capacity", used: 5 })));
      expect(await used(c)).toBe(5);
      expect(await stored(c)).toBe(5);
    });

    test("20 concurrent first creates at limit − 1 with no counter yet: exactly one stored; the counter holds the limit", async () => {
      const c = await collection();
      for (let i = 0; i < 3; i++) expect(await s.records.insert(write(c))).toBe("ok");
      const outcomes = await Promise.all(Array.from({ length: 20 }, () => claiming(c, 4)));
      expect(outcomes.filter((o) => o === "ok").length).toBe(1);
      expect(outcomes.filter((o) => o !== "ok").every((o) => typeof o === "object" && o.used === 4)).toBe(true);
      expect(await used(c)).toBe(4);
      expect(await stored(c)).toBe(4);
    });

    test("past a limit lowered below usage: refused with what is held, until deletions make room", async () => {
      const c = await collection();
      const kept = [];
      for (let i = 0; i < 6; i++) {
        const w = write(c);
        expect(await records.insertClaiming(w, { kind: "records", limit: 10 })).toBe("ok");
        kept.push(w.record);
      }
      expect(await claiming(c, 4)).toEqual({ refused: "capacity", used: 6 });
      for (const r of kept.slice(0, 3)) {
        await s.records.delete(c.workspace_id, c.id, r.id, null);
        await s.planUsage.release(c.workspace_id, "records", 1);
      }
      expect(await claiming(c, 4)).toBe("ok");
      expect(await claiming(c, 4)).toEqual({ refused: "capacity", used: 4 });
      expect(await stored(c)).toBe(4);
    });

    test("a record of a collection that is gone: collection_not_found, and no unit taken (with and without a limit)", async () => {
      const c = await collection();
      expect(await claiming(c, null)).toBe("ok");
      const gone = { ...c, id: uuidv7() };
      expect(await claiming(gone, null)).toBe("collection_not_found");
      expect(await claiming(gone, 10)).toBe("collection_not_found");
      expect(await used(c)).toBe(1);
    });

    test("an insert that fails (the same record twice) takes no unit", async () => {
      const c = await collection();
      const w = write(c);
      expect(await records.insertClaiming(w, { kind: "records", limit: null })).toBe("ok");
      await expect(records.insertClaiming(w, { kind: "records", limit: null })).rejects.toThrow();
      await expect(records.insertClaiming(w, { kind: "records", limit: 10 })).rejects.toThrow();
      expect(await used(c)).toBe(1);
      expect(await stored(c)).toBe(1);
    });

    // Concurrent creates of one workspace go out together (up to 16 a statement): a batch is all or nothing.
    test("12 concurrent creates with room for 3: exactly 3 stored (a batch too big for the room runs one by one)", async () => {
      const c = await collection();
      for (let i = 0; i < 4; i++) expect(await claiming(c, 7)).toBe("ok");
      const outcomes = await Promise.all(Array.from({ length: 12 }, () => claiming(c, 7)));
      expect(outcomes.filter((o) => o === "ok").length).toBe(3);
      expect(outcomes.filter((o) => o !== "ok")).toEqual(Array.from({ length: 9 }, () => ({ refused: "capacity", used: 7 })));
      expect([await used(c), await stored(c)]).toEqual([7, 7]);
    });

    test("concurrent creates, some into a collection that is gone: those are collection_not_found, the others stored and counted", async () => {
      const c = await collection();
      const gone = { ...c, id: uuidv7() };
      for (const limit of [null, 100]) {
        const outcomes = await Promise.all(Array.from({ length: 16 }, (_, i) => claiming(i % 4 === 3 ? gone : c, limit)));
        expect(outcomes.filter((o) => o === "collection_not_found").length).toBe(4);
        expect(outcomes.filter((o) => o === "ok").length).toBe(12);
      }
      expect([await used(c), await stored(c)]).toEqual([24, 24]);
    });

    test("concurrent creates, one of them a record already stored: that one fails, the others are stored and counted", async () => {
      const c = await collection();
      const again = write(c);
      expect(await records.insertClaiming(again, { kind: "records", limit: null })).toBe("ok");
      const outcomes = await Promise.allSettled(
        Array.from({ length: 12 }, (_, i) => i === 5 ? records.insertClaiming(again, { kind: "records", limit: null }) : claiming(c, null)),
      );
      expect(outcomes.map((o) => o.status === "fulfilled" ? o.value : "failed")).toEqual(
        Array.from({ length: 12 }, (_, i) => i === 5 ? "failed" : "ok"),
      );
      expect([await used(c), await stored(c)]).toEqual([12, 12]);
    });

    test("with the collection's version: stored while the collection is at it; changed or gone, collection_changed, nothing written or counted", async () => {
      const c = await collection();
      const at = (version: number | null, of = c) => records.insertClaiming(write(of), { kind: "records", limit: null }, version);
      expect(await at(c.version)).toBe("ok");
      expect(await s.collections.update({ ...c, name: "Renamed", version: c.version + 1 })).toBe("ok");
      for (const limit of [null, 10]) {
        expect(await records.insertClaiming(write(c), { kind: "records", limit }, c.version)).toBe("collection_changed");
      }
      expect(await at(c.version + 1)).toBe("ok");
      expect(await at(null)).toBe("ok");
      // Concurrent creates checking an old version and the current one, together: each answered by its own.
      const outcomes = await Promise.all(Array.from({ length: 12 }, (_, i) => at(i % 3 === 0 ? c.version : c.version + 1)));
      expect(outcomes).toEqual(Array.from({ length: 12 }, (_, i) => i % 3 === 0 ? "collection_changed" : "ok"));
      expect(await at(c.version + 1, { ...c, id: uuidv7() })).toBe("collection_changed");
      expect([await used(c), await stored(c)]).toEqual([11, 11]);
    });

    test("each workspace's creates count in its own counter", async () => {
      const [a, b] = [await collection(), await collection()];
      await Promise.all([...Array.from({ length: 5 }, () => claiming(a, null)), ...Array.from({ length: 3 }, () => claiming(b, 3))]);
      expect([await used(a), await used(b)]).toEqual([5, 3]);
    });

    // The core create over these stores: it runs against the collection as its process last read
    // it, and must answer as the current collection would (another process may have changed it).
    test("a create in one process after another changed the collection: answered by the current collection", async () => {
      const here = processes[0]!;
      const there = processes[processes.length - 1]!;
      const b = await bootstrapped(here);
      const p: Principal = {
        workspaceId: b.workspace.id,
        kind: "identity",
        identityId: b.owner.identity.id,
        memberId: b.member.id,
        role: "owner",
        via: "api_key",
        credentialId: b.apiKey.id,
        scopes: API_KEY_SCOPES,
      };
      const secretBox = await createSecretBox("contract-secret-contract-secret-0");
      const deps = (stores: Stores) =>
        ({ stores, clock: systemClock, secretBox, capacity: planLimitsGate(stores.planUsage, "off", stores.contracts) }) as ComposedDeps;
      const ws = b.workspace;
      const c = await createCollection(deps(here), p, ws, { name: "Deals", archetype: "pipeline" } as never);
      const create = (body: object) => createRecord(deps(here), p, ws, c.id, { fields: {}, ...body } as never);
      const code = (run: Promise<unknown>) => run.then(() => "created", (e) => (isAppError(e) ? e.code : String(e)));
      expect(await code(create({}))).toBe("created");
      await setCollectionStatus(deps(there), p, ws, c.id, "archived", undefined);
      expect(await code(create({}))).toBe("CONFLICT");
      await setCollectionStatus(deps(there), p, ws, c.id, "active", undefined);
      expect(await code(create({}))).toBe("created");
      await updateCollection(deps(there), p, ws, c.id, { record_schema: { stages: ["open", "closed"] } } as never, undefined);
      expect(await code(create({ status: "closed" }))).toBe("created");
      expect(await code(create({ status: "lead" }))).toBe("VALIDATION_FAILED");
      await updateCollection(
        deps(there),
        p,
        ws,
        c.id,
        { record_schema: { fields: { amount: { type: "number", min: 5 } } } } as never,
        undefined,
      );
      expect(await code(create({ fields: { amount: 1 } }))).toBe("VALIDATION_FAILED");
      expect(await code(create({ fields: { amount: 10 } }))).toBe("created");
      const current = await there.collections.get(ws.id, c.id);
      await purgeCollection(deps(there), p, ws, c.id, {}, current!.version);
      expect(await code(create({}))).toBe("NOT_FOUND");
      expect((await here.planUsage.usage(ws.id)).records).toBe(0);
    });
  });
}
