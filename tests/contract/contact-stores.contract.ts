import type { TestApi } from "./kit/test-api.ts";
import { uuidv7 } from "../../core/kernel/ids.ts";
import type { ContactUnlock } from "../../core/contacts/model.ts";
import type { UnlockRecordWrite } from "../../core/contacts/ports.ts";
import type { Stores } from "../../core/stores.ts";
import { bootstrapped, collectionFixture, recordChangeFixture, recordFixture, stamp } from "./fixtures.ts";
import type { Collection, CollectionRecord, Entity } from "../../core/collections/model.ts";
import { recordSearchText } from "../../core/collections/record-text.ts";

/**
 * The contract of contacts' store (core/contacts/ports.ts: ContactUnlockStore): an unlock holds
 * and claims in one write, each (workspace, entity, kind) claimed once and charged once under any
 * concurrency; its finish settles, writes the records showing the values and captures once; a
 * dead request's hold is taken over or swept exactly once; every read is scoped by workspace. The
 * memory adapter is the reference; each test makes its own workspace.
 */
export function runContactStoresContract(name: string, open: () => Promise<Stores>, api: TestApi) {
  const { afterAll, beforeAll, describe, expect, test } = api;
  describe(`${name}: contact stores`, () => {
    let s: Stores;
    beforeAll(async () => {
      s = await open();
    });
    afterAll(async () => {
      await s?.close();
    });

    const workspace = async () => (await bootstrapped(s)).workspace.id;

    // Claimed now (`stamp()` is a fixed past: every claim would be stale).
    const unlockOf = (
      ws: string,
      entity: string,
      token: string,
      kind: ContactUnlock["kind"] = "email",
      claimed_at = new Date().toISOString(),
    ): ContactUnlock => ({
      workspace_id: ws,
      entity_id: entity,
      kind,
      state: "pending",
      value: null,
      credits: 0,
      token,
      claimed_at,
      settled_at: null,
    });
    const settle = (u: ContactUnlock, value: string | null, credits: number): ContactUnlock => ({
      ...u,
      state: value === null ? "unavailable" : "unlocked",
      value,
      credits: value === null ? 0 : credits,
      settled_at: stamp(),
    });
    const resolution = () => ({ id: uuidv7(), at: stamp(), reason: "contact unlock" });
    const grant = (ws: string, amount: number) =>
      s.creditLedger.append({ workspace_id: ws, id: uuidv7(), at: stamp(), op: { type: "grant", amount } });
    const staleBefore = () => new Date(Date.now() - 60_000).toISOString();
    /** A lease that has not ended (the request is alive). */
    const leaseAhead = () => new Date(Date.now() + 60_000).toISOString();

    test("ContactUnlockStore.beginUnlocks() holds and claims; finishUnlocks() settles the token's claims and captures their credits, once", async () => {
      const ws = await workspace();
      await grant(ws, 20);
      const entity = uuidv7();
      const token = uuidv7();
      const asked = [unlockOf(ws, entity, token, "email"), unlockOf(ws, entity, token, "phone")];
      const begun = await s.contactUnlocks.beginUnlocks(
        asked,
        { amount: 12, reason: "contact unlock", lease_until: leaseAhead() },
        staleBefore(),
      );
      if (!begun.ok) throw new Error("refused");
      expect(begun.claims).toEqual([{ claimed: true, took_over: null }, { claimed: true, took_over: null }]);
      expect(begun.hold).toMatchObject({ id: token, type: "hold", amount: 0, held: 12, balance_after: 20, held_after: 12 });
      expect(await s.creditLedger.totals(ws)).toMatchObject({ balance: 20, held: 12 });

      // Another token settles nothing; the holder's finish settles both, capturing the hit only.
      const foreign = await s.contactUnlocks.finishUnlocks(ws, uuidv7(), [settle(asked[0]!, "x@y.example", 4)], resolution());
      expect(foreign).toEqual({ settled: [], resolution: null });
      const done = await s.contactUnlocks.finishUnlocks(
        ws,
        token,
        [settle(asked[0]!, "a@b.example", 4), settle(asked[1]!, null, 8)],
        resolution(),
      );
      expect(done.settled.sort()).toEqual([`${entity}:email`, `${entity}:phone`]);
      expect(done.resolution).toMatchObject({ type: "capture", amount: -4, held: -12, hold_id: token, balance_after: 16, held_after: 0 });
      expect(await s.creditLedger.totals(ws)).toMatchObject({ balance: 16, held: 0 });
      // Again: the hold resolved before, nothing settles or moves.
      const again = await s.contactUnlocks.finishUnlocks(ws, token, [settle(asked[0]!, "other@b.example", 4)], resolution());
      expect(again).toEqual({ settled: [], resolution: done.resolution });
      const stored = await s.contactUnlocks.unlocksOf(ws, [entity]);
      expect(stored.map((u) => `${u.kind}:${u.state}:${u.value}:${u.credits}`).sort()).toEqual([
        "email:unlocked:a@b.example:4",
        "phone:unavailable:null:0",
      ]);
      // A settled key is answered as it stands.
      const later = await s.contactUnlocks.beginUnlocks(
        [unlockOf(ws, entity, uuidv7())],
        { amount: 4, reason: null, lease_until: leaseAhead() },
        staleBefore(),
      );
      expect(later.ok && later.claims).toEqual([{ claimed: false, existing: stored.find((u) => u.kind === "email") }]);
      expect(await s.contactUnlocks.unlocksOf(await workspace(), [entity])).toEqual([]);
    });

    test("ContactUnlockStore.unlockContext() reads the collection, its records asked for, their entities and those entities' unlocks, of one workspace", async () => {
      const ws = await workspace();
      const c = collectionFixture(ws) as Collection;
      await s.collections.insert(c);
      const other = collectionFixture(ws) as Collection;
      await s.collections.insert(other);
      const person: Entity = {
        id: uuidv7(),
        workspace_id: ws,
        kind: "person",
        name: "Ada",
        dedup_key: "sample:p-1",
        dedup_norm: "sample:p-1",
        attributes: { provider_ids: { sample: "p-1" }, note: { nested: [1, "two"] } },
        version: 1,
        created_at: stamp(),
        updated_at: stamp(),
      };
      await s.entities.upsert(person, () => null);
      const linked = recordFixture(c, { entity_id: person.id, fields: { company: "Acme", amount: 3 } });
      const plain = recordFixture(c);
      const elsewhere = recordFixture(other, { entity_id: person.id });
      for (const r of [linked, plain, elsewhere]) {
        expect(await s.records.insert({ record: r, change: recordChangeFixture(r) })).toBe("ok");
      }
      const token = uuidv7();
      const claim = unlockOf(ws, person.id, token, "email");
      await s.contactUnlocks.beginUnlocks([claim], null, staleBefore());
      await s.contactUnlocks.finishUnlocks(ws, token, [settle(claim, "ada@b.example", 4)], resolution());
      const [unlock] = await s.contactUnlocks.unlocksOf(ws, [person.id]);

      const read = await s.contactUnlocks.unlockContext(ws, c.id, [linked.id, plain.id, elsewhere.id, uuidv7(), "not-a-uuid"]);
      expect(read?.collection).toEqual(c);
      // The record of another collection and ids of no record read nothing.
      expect(read?.records.sort((a, b) => (a.id < b.id ? -1 : 1))).toEqual([linked, plain].sort((a, b) => (a.id < b.id ? -1 : 1)));
      expect(read?.entities).toEqual([person]);
      expect(read?.unlocks).toEqual([unlock]);
      expect(unlock).toMatchObject({ entity_id: person.id, kind: "email", state: "unlocked", value: "ada@b.example" });
      // Records without entities: no entities or unlocks.
      expect(await s.contactUnlocks.unlockContext(ws, c.id, [plain.id])).toEqual({
        collection: c,
        records: [plain],
        entities: [],
        unlocks: [],
      });
      expect(await s.contactUnlocks.unlockContext(ws, c.id, [])).toEqual({ collection: c, records: [], entities: [], unlocks: [] });
      // Unknown collection: null.
      expect(await s.contactUnlocks.unlockContext(ws, uuidv7(), [linked.id])).toBeNull();
      expect(await s.contactUnlocks.unlockContext(ws, "not-a-uuid", [linked.id])).toBeNull();
      // Another workspace's ids read nothing: its collection is not the asker's.
      const stranger = await workspace();
      expect(await s.contactUnlocks.unlockContext(stranger, c.id, [linked.id, plain.id])).toBeNull();
      const theirs = collectionFixture(stranger) as Collection;
      await s.collections.insert(theirs);
      expect(await s.contactUnlocks.unlockContext(stranger, theirs.id, [linked.id, plain.id])).toEqual({
        collection: theirs,
        records: [],
        entities: [],
        unlocks: [],
      });
    });

    test("ContactUnlockStore.beginUnlocks() short of credits holds and claims nothing; concurrent begins never hold more than the balance", async () => {
      const ws = await workspace();
      const nothing = await s.contactUnlocks.beginUnlocks(
        [unlockOf(ws, uuidv7(), uuidv7())],
        { amount: 4, reason: null, lease_until: leaseAhead() },
        staleBefore(),
      );
      expect(nothing).toEqual({ ok: false, reason: "insufficient", required: 4, available: 0 });
      await grant(ws, 10);
      const entities = Array.from({ length: 20 }, () => uuidv7());
      const outcomes = await Promise.all(
        entities.map((e) =>
          s.contactUnlocks.beginUnlocks([unlockOf(ws, e, uuidv7())], { amount: 4, reason: null, lease_until: leaseAhead() }, staleBefore())
        ),
      );
      expect(outcomes.filter((o) => o.ok)).toHaveLength(2);
      for (const o of outcomes) if (!o.ok) expect(o).toMatchObject({ reason: "insufficient", required: 4 });
      expect(await s.creditLedger.totals(ws)).toMatchObject({ balance: 10, held: 8 });
      // Only the two that held claimed.
      expect(await s.contactUnlocks.unlocksOf(ws, entities)).toHaveLength(2);
    });

    test("ContactUnlockStore.beginUnlocks(): of 30 concurrent unlocks of one (entity, kind) one claims; the key is charged once", async () => {
      const ws = await workspace();
      await grant(ws, 1_000);
      const entity = uuidv7();
      const tokens = Array.from({ length: 30 }, () => uuidv7());
      const runs = await Promise.all(tokens.map(async (token) => {
        const u = unlockOf(ws, entity, token);
        const begun = await s.contactUnlocks.beginUnlocks([u], { amount: 4, reason: null, lease_until: leaseAhead() }, staleBefore());
        if (!begun.ok) throw new Error("refused");
        const claim = begun.claims[0]!;
        const done = await s.contactUnlocks.finishUnlocks(ws, token, claim.claimed ? [settle(u, "a@b.example", 4)] : [], resolution());
        return { claim, done };
      }));
      const winners = runs.filter((r) => r.claim.claimed);
      expect(winners).toHaveLength(1);
      for (const r of runs) if (!r.claim.claimed) expect(r.done).toMatchObject({ settled: [], resolution: { type: "release", amount: 0 } });
      expect(winners[0]!.done.resolution).toMatchObject({ type: "capture", amount: -4 });
      expect(await s.creditLedger.totals(ws)).toMatchObject({ balance: 996, held: 0 });
    });

    test("ContactUnlockStore: 60 concurrent unlocks of one account (hits, misses, finishes repeated) leave a whole ledger chain", async () => {
      const ws = await workspace();
      await grant(ws, 1_000);
      const runs = await Promise.all(Array.from({ length: 60 }, async (_, i) => {
        const token = uuidv7();
        const entity = uuidv7();
        const asked = [unlockOf(ws, entity, token, "email"), unlockOf(ws, entity, token, "phone")];
        const begun = await s.contactUnlocks.beginUnlocks(
          asked,
          { amount: 3 + (i % 4), reason: `unlock ${i}`, lease_until: leaseAhead() },
          staleBefore(),
        );
        if (!begun.ok) throw new Error("refused");
        expect(begun.hold).toMatchObject({ id: token, type: "hold", held: 3 + (i % 4), reason: `unlock ${i}` });
        // Every third a miss on the phone; every fifth finished twice at once (one resolution).
        const settles = [settle(asked[0]!, `${i}@b.example`, 2), settle(asked[1]!, i % 3 === 0 ? null : `+${i}`, 1)];
        const finishes = await Promise.all(
          Array.from({ length: i % 5 === 0 ? 2 : 1 }, () => s.contactUnlocks.finishUnlocks(ws, token, settles, resolution())),
        );
        return { i, token, entity, finishes };
      }));
      let captured = 0;
      for (const r of runs) {
        const capture = r.i % 3 === 0 ? 2 : 3;
        captured += capture;
        const [first, second] = r.finishes;
        expect(first!.resolution).toMatchObject({ type: "capture", amount: -capture, held: -(3 + (r.i % 4)), hold_id: r.token });
        if (second) {
          expect(second.resolution).toEqual(first!.resolution);
          // Between them, both claims settled (MongoDB, without transactions, may report one twice: the same write).
          expect([...new Set([...first!.settled, ...second.settled])].sort()).toEqual([`${r.entity}:email`, `${r.entity}:phone`]);
        } else expect(first!.settled.sort()).toEqual([`${r.entity}:email`, `${r.entity}:phone`]);
      }
      expect(await s.creditLedger.totals(ws)).toEqual({ seq: 121, balance: 1_000 - captured, held: 0 });
      // The chain: seqs 1…121 without gaps, each entry's totals the previous ones plus its change.
      const chain = (await s.creditLedger.history(ws, {}, { limit: 200 })).reverse();
      expect(chain.map((e) => e.seq)).toEqual(Array.from({ length: 121 }, (_, i) => i + 1));
      for (let i = 1; i < chain.length; i++) {
        const [prev, e] = [chain[i - 1]!, chain[i]!];
        expect([e.balance_after, e.held_after]).toEqual([prev.balance_after + e.amount, prev.held_after + e.held]);
        expect(e.balance_after - e.held_after).toBeGreaterThanOrEqual(0);
      }
    });

    test("ContactUnlockStore: an unlock whose request died is taken over once stale, and finishing its token repairs its hold", async () => {
      const ws = await workspace();
      await grant(ws, 10);
      const entity = uuidv7();
      const dead = uuidv7();
      const old = new Date(Date.now() - 3_600_000).toISOString();
      const died = await s.contactUnlocks.beginUnlocks(
        [unlockOf(ws, entity, dead, "email", old), unlockOf(ws, entity, dead, "linkedin", old)],
        { amount: 5, reason: null, lease_until: leaseAhead() },
        staleBefore(),
      );
      expect(died.ok).toBe(true);
      // Its claims are still fresh for a request that started within the stale window.
      const early = await s.contactUnlocks.beginUnlocks([unlockOf(ws, entity, uuidv7())], null, old);
      expect(early.ok && early.claims[0]).toMatchObject({ claimed: false, existing: { token: dead, state: "pending" } });

      const token = uuidv7();
      const u = unlockOf(ws, entity, token, "email");
      const begun = await s.contactUnlocks.beginUnlocks([u], { amount: 4, reason: null, lease_until: leaseAhead() }, staleBefore());
      expect(begun.ok && begun.claims).toEqual([{ claimed: true, took_over: dead }]);
      expect(await s.creditLedger.totals(ws)).toMatchObject({ balance: 10, held: 9 });
      // The repair: the dead token settled nothing, so its whole hold is released; a repeat changes nothing.
      const repaired = await s.contactUnlocks.finishUnlocks(ws, dead, [], resolution());
      expect(repaired).toMatchObject({ settled: [], resolution: { type: "release", amount: 0, held: -5, hold_id: dead } });
      expect(await s.contactUnlocks.finishUnlocks(ws, dead, [], resolution())).toEqual(repaired);
      // The dead request, were it only slow, can settle nothing now.
      const late = await s.contactUnlocks.finishUnlocks(
        ws,
        dead,
        [settle(unlockOf(ws, entity, dead, "linkedin", old), "in/x", 1)],
        resolution(),
      );
      expect(late.settled).toEqual([]);
      const done = await s.contactUnlocks.finishUnlocks(ws, token, [settle(u, "a@b.example", 4)], resolution());
      expect(done.resolution).toMatchObject({ type: "capture", amount: -4 });
      expect(await s.creditLedger.totals(ws)).toMatchObject({ balance: 6, held: 0 });
      const stored = await s.contactUnlocks.unlocksOf(ws, [entity]);
      expect(stored.map((x) => `${x.kind}:${x.state}`).sort()).toEqual(["email:unlocked", "linkedin:pending"]);
    });

    // ---- The sweep of unlock holds whose request died (docs/decisions/055-unlock-hold-sweep.md) ----

    test("ContactUnlockStore.expiredUnlocks() lists the leases of unfinished unlock holds that ended before now, earliest first, at most limit", async () => {
      const ws = await workspace();
      await grant(ws, 100);
      // Leases in 2001: earlier than any other test's, so the first page is these alone.
      const ends = ["2001-01-01T00:00:03.000Z", "2001-01-01T00:00:01.000Z", "2001-01-01T00:00:02.000Z", "2001-01-01T00:00:09.000Z"];
      const tokens: string[] = [];
      for (const lease_until of ends) {
        const token = uuidv7();
        tokens.push(token);
        expect(
          (await s.contactUnlocks.beginUnlocks([unlockOf(ws, uuidv7(), token)], { amount: 4, reason: null, lease_until }, staleBefore()))
            .ok,
        )
          .toBe(true);
      }
      const listed = await s.contactUnlocks.expiredUnlocks("2001-01-01T00:00:05.000Z", 100);
      expect(listed.filter((l) => l.workspace_id === ws)).toEqual([
        { workspace_id: ws, token: tokens[1], lease_until: ends[1] },
        { workspace_id: ws, token: tokens[2], lease_until: ends[2] },
        { workspace_id: ws, token: tokens[0], lease_until: ends[0] },
      ]);
      expect((await s.contactUnlocks.expiredUnlocks("2001-01-01T00:00:05.000Z", 2)).map((l) => l.token)).toEqual([tokens[1], tokens[2]]);
      // A lease ends strictly before `now`; a finished unlock has none.
      expect((await s.contactUnlocks.expiredUnlocks(ends[1]!, 100)).filter((l) => l.workspace_id === ws)).toEqual([]);
      await s.contactUnlocks.finishUnlocks(ws, tokens[1]!, [], resolution());
      expect(
        (await s.contactUnlocks.expiredUnlocks("2001-01-01T00:00:10.000Z", 100)).filter((l) => l.workspace_id === ws).map((l) => l.token),
      )
        .toEqual([tokens[2], tokens[0], tokens[3]]);
      for (const t of tokens) await s.contactUnlocks.expireUnlock(ws, t, resolution());
      expect((await s.contactUnlocks.expiredUnlocks("2001-01-01T00:00:10.000Z", 100)).filter((l) => l.workspace_id === ws)).toEqual([]);
      expect(await s.creditLedger.totals(ws)).toMatchObject({ balance: 100, held: 0 });
    });

    test("ContactUnlockStore.expireUnlock(): a hold whose request never finished is released once, its pending claims dropped; a late finish settles nothing", async () => {
      const ws = await workspace();
      await grant(ws, 20);
      const entity = uuidv7();
      const dead = uuidv7();
      const asked = [unlockOf(ws, entity, dead, "email"), unlockOf(ws, entity, dead, "phone")];
      const lease_until = new Date(Date.now() - 1_000).toISOString();
      expect((await s.contactUnlocks.beginUnlocks(asked, { amount: 12, reason: "contact unlock", lease_until }, staleBefore())).ok).toBe(
        true,
      );
      expect(await s.creditLedger.totals(ws)).toMatchObject({ balance: 20, held: 12 });
      expect((await s.contactUnlocks.expiredUnlocks(new Date().toISOString(), 1_000)).filter((l) => l.workspace_id === ws)).toEqual([
        { workspace_id: ws, token: dead, lease_until },
      ]);

      const expired = await s.contactUnlocks.expireUnlock(ws, dead, resolution());
      expect(expired).toMatchObject({ dropped: 2, resolution: { type: "release", amount: 0, held: -12, hold_id: dead, held_after: 0 } });
      expect(await s.creditLedger.totals(ws)).toMatchObject({ balance: 20, held: 0 });
      // The keys are free at once (no value was written for them), and the lease is gone.
      expect(await s.contactUnlocks.unlocksOf(ws, [entity])).toEqual([]);
      expect((await s.contactUnlocks.expiredUnlocks(new Date().toISOString(), 1_000)).filter((l) => l.workspace_id === ws)).toEqual([]);
      // Again: nothing changes.
      expect(await s.contactUnlocks.expireUnlock(ws, dead, resolution())).toEqual({ dropped: 0, resolution: expired.resolution });
      // The request, were it only slow, finishes too late: nothing settles, nothing is charged.
      const late = await s.contactUnlocks.finishUnlocks(ws, dead, [settle(asked[0]!, "a@b.example", 4)], resolution());
      expect(late).toEqual({ settled: [], resolution: expired.resolution });
      expect(await s.contactUnlocks.unlocksOf(ws, [entity])).toEqual([]);
      expect(await s.creditLedger.totals(ws)).toEqual({ seq: 3, balance: 20, held: 0 });
      // Another request claims the key afresh.
      const next = await s.contactUnlocks.beginUnlocks([unlockOf(ws, entity, uuidv7(), "email")], null, staleBefore());
      expect(next.ok && next.claims).toEqual([{ claimed: true, took_over: null }]);
      // A token without a lease (finished, or never held) changes nothing.
      expect(await s.contactUnlocks.expireUnlock(ws, uuidv7(), resolution())).toEqual({ dropped: 0, resolution: null });
      expect(await s.contactUnlocks.expireUnlock(await workspace(), dead, resolution())).toEqual({ dropped: 0, resolution: null });
    });

    test("ContactUnlockStore.expireUnlock() after the finish changes nothing: the values settled stay, and stay paid", async () => {
      const ws = await workspace();
      await grant(ws, 20);
      const entity = uuidv7();
      const token = uuidv7();
      const u = unlockOf(ws, entity, token, "email");
      const lease_until = new Date(Date.now() - 1_000).toISOString();
      expect((await s.contactUnlocks.beginUnlocks([u], { amount: 4, reason: null, lease_until }, staleBefore())).ok).toBe(true);
      // Its lease ended, but the request finished before any sweep.
      const done = await s.contactUnlocks.finishUnlocks(ws, token, [settle(u, "a@b.example", 4)], resolution());
      expect(done.resolution).toMatchObject({ type: "capture", amount: -4 });
      expect((await s.contactUnlocks.expiredUnlocks(new Date().toISOString(), 1_000)).filter((l) => l.workspace_id === ws)).toEqual([]);
      expect(await s.contactUnlocks.expireUnlock(ws, token, resolution())).toEqual({ dropped: 0, resolution: done.resolution });
      expect((await s.contactUnlocks.unlocksOf(ws, [entity]))[0]).toMatchObject({ state: "unlocked", value: "a@b.example", credits: 4 });
      expect(await s.creditLedger.totals(ws)).toEqual({ seq: 3, balance: 16, held: 0 });
    });

    test("ContactUnlockStore: a late finish racing two sweeps of 12 expired unlocks: one resolves each hold, a seen value is paid, the chain is whole", async () => {
      const ws = await workspace();
      await grant(ws, 1_000);
      const lease_until = new Date(Date.now() - 1_000).toISOString();
      const begun = await Promise.all(Array.from({ length: 12 }, async (_, i) => {
        const token = uuidv7();
        const entity = uuidv7();
        const asked = [unlockOf(ws, entity, token, "email"), unlockOf(ws, entity, token, "phone")];
        const b = await s.contactUnlocks.beginUnlocks(asked, { amount: 12, reason: `unlock ${i}`, lease_until }, staleBefore());
        if (!b.ok) throw new Error("refused");
        return { i, token, entity, asked };
      }));
      const raced = await Promise.all(begun.map(async (b) => {
        // Every third a miss on the phone.
        const settles = [settle(b.asked[0]!, `${b.i}@b.example`, 4), settle(b.asked[1]!, b.i % 3 === 0 ? null : `+${b.i}`, 8)];
        // Started in turn, finish first or a sweep first: either may win.
        const expire = () => s.contactUnlocks.expireUnlock(ws, b.token, resolution());
        const finish = () => s.contactUnlocks.finishUnlocks(ws, b.token, settles, resolution());
        const [first, finished, last] = b.i % 2 === 0
          ? await Promise.all([expire(), finish(), expire()])
          : await Promise.all([finish(), expire(), expire()]).then(([f, a, z]) => [a, f, z] as const);
        return {
          ...b,
          finished: finished as Awaited<ReturnType<typeof finish>>,
          expired: [first, last] as Awaited<ReturnType<typeof expire>>[],
        };
      }));
      let captured = 0;
      let finishes = 0;
      for (const r of raced) {
        const resolved = r.finished.resolution!;
        expect(resolved).toMatchObject({ hold_id: r.token, held: -12 });
        // One resolution, whoever answers.
        for (const e of r.expired) expect(e.resolution).toEqual(resolved);
        const stored = await s.contactUnlocks.unlocksOf(ws, [r.entity]);
        const seen = stored.filter((u) => u.state === "unlocked");
        // What can be seen is what was paid for, and nothing else.
        expect(Math.abs(resolved.amount)).toBe(seen.reduce((n, u) => n + u.credits, 0));
        if (r.finished.settled.length > 0) {
          // The finish won (or a sweep completed it: the same writes): both keys settled, the hits captured.
          finishes++;
          expect(r.finished.settled.sort()).toEqual([`${r.entity}:email`, `${r.entity}:phone`]);
          expect(stored.map((u) => `${u.kind}:${u.state}`).sort()).toEqual([
            "email:unlocked",
            `phone:${r.i % 3 === 0 ? "unavailable" : "unlocked"}`,
          ]);
          expect(resolved.amount).toBe(r.i % 3 === 0 ? -4 : -12);
        } else {
          // A sweep won: released whole, the claims dropped, nothing seen.
          expect(resolved).toMatchObject({ type: "release", amount: 0 });
          expect(stored).toEqual([]);
        }
        captured += -resolved.amount;
      }
      // Memory runs each call in one turn: there the first started wins, so both outcomes occur.
      if (finishes === 0 || finishes === 12) console.log(`  race: ${finishes} of 12 holds resolved by the finish`);
      expect(await s.creditLedger.totals(ws)).toEqual({ seq: 25, balance: 1_000 - captured, held: 0 });
      const chain = (await s.creditLedger.history(ws, {}, { limit: 100 })).reverse();
      expect(chain.map((e) => e.seq)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
      for (let i = 1; i < chain.length; i++) {
        const [prev, e] = [chain[i - 1]!, chain[i]!];
        expect([e.balance_after, e.held_after]).toEqual([prev.balance_after + e.amount, prev.held_after + e.held]);
        expect(e.balance_after - e.held_after).toBeGreaterThanOrEqual(0);
      }
      expect((await s.contactUnlocks.expiredUnlocks(new Date().toISOString(), 1_000)).filter((l) => l.workspace_id === ws)).toEqual([]);
    });

    test("ContactUnlockStore: unlocks without a hold (nothing to pay) claim and settle only", async () => {
      const ws = await workspace();
      const entity = uuidv7();
      const token = uuidv7();
      const u = unlockOf(ws, entity, token, "phone");
      const begun = await s.contactUnlocks.beginUnlocks([u], null, staleBefore());
      expect(begun).toEqual({ ok: true, hold: null, claims: [{ claimed: true, took_over: null }] });
      expect(await s.contactUnlocks.finishUnlocks(ws, token, [settle(u, "+1 555", 0)], resolution())).toEqual({
        settled: [`${entity}:phone`],
        resolution: null,
      });
      expect(await s.creditLedger.totals(ws)).toEqual({ seq: 0, balance: 0, held: 0 });
      expect((await s.contactUnlocks.unlocksOf(ws, [entity]))[0]).toMatchObject({ state: "unlocked", value: "+1 555", credits: 0 });
    });

    // A record of `c` inserted with its first history entry.
    const storedRecord = async (c: Collection, entityId: string | null) => {
      const r = recordFixture(c, { entity_id: entityId });
      expect(await s.records.insert({ record: r, change: recordChangeFixture(r) })).toBe("ok");
      return r;
    };
    // The write that shows `fields` on `r` (one version up, an agent's change), needing `needs` settled.
    const showing = (r: CollectionRecord, fields: Record<string, string>, needs: string[]): UnlockRecordWrite => {
      const next = { ...r, fields: { ...r.fields, ...fields }, version: r.version + 1, updated_at: new Date().toISOString() };
      next.search_text = recordSearchText(next.fields);
      const diff = Object.entries(fields).map(([name, after]) => ({ path: `fields.${name}`, before: r.fields[name] ?? null, after }));
      return { write: { record: next, change: recordChangeFixture(next, { actor_kind: "agent", diff }) }, needs };
    };
    const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : 1);

    test("ContactUnlockStore.finishUnlocks() writes the records showing what it settles with the capture, each with its history entry; a record changed meanwhile, or needing a key it did not settle unlocked, is not written", async () => {
      const ws = await workspace();
      await grant(ws, 20);
      const c = collectionFixture(ws) as Collection;
      await s.collections.insert(c);
      const person = uuidv7();
      const [a, b, moved, missed] = [
        await storedRecord(c, person),
        await storedRecord(c, person),
        await storedRecord(c, person),
        await storedRecord(c, person),
      ];
      const token = uuidv7();
      const asked = [unlockOf(ws, person, token, "email"), unlockOf(ws, person, token, "phone")];
      const begun = await s.contactUnlocks.beginUnlocks(
        asked,
        { amount: 12, reason: "contact unlock", lease_until: leaseAhead() },
        staleBefore(),
      );
      expect(begun.ok).toBe(true);
      // Changed by someone else after the unlock read it.
      const edit = showing(moved, { company: "Moved" }, []);
      expect(await s.records.update(edit.write)).toBe("ok");

      const [email, phone] = [`${person}:email`, `${person}:phone`];
      const writes = [
        showing(a, { email: "ada@b.example" }, [email]),
        showing(b, { email: "ada@b.example" }, [email]),
        showing(moved, { email: "ada@b.example" }, [email]),
        // The phone settles as a miss: a write needing it is not made.
        showing(missed, { email: "ada@b.example", phone: "+1 555" }, [email, phone]),
      ];
      const done = await s.contactUnlocks.finishUnlocks(
        ws,
        token,
        [settle(asked[0]!, "ada@b.example", 4), settle(asked[1]!, null, 8)],
        resolution(),
        writes,
      );
      expect(done.written?.sort()).toEqual([a.id, b.id].sort());
      expect(done.resolution).toMatchObject({ type: "capture", amount: -4, held: -12 });
      expect(await s.creditLedger.totals(ws)).toMatchObject({ balance: 16, held: 0 });
      for (const w of writes.slice(0, 2)) {
        const r = w.write.record;
        expect(await s.records.get(ws, c.id, r.id)).toEqual(r);
        // Recorded like any write: the history's newest entry, at the new version.
        const history = await s.records.history(ws, c.id, r.id, 10);
        expect(history.map((h) => h.version)).toEqual([2, 1]);
        expect(history[0]).toEqual(w.write.change);
      }
      expect(await s.records.get(ws, c.id, moved.id)).toEqual(edit.write.record);
      expect((await s.records.history(ws, c.id, moved.id, 10)).map((h) => h.version)).toEqual([2, 1]);
      expect(await s.records.get(ws, c.id, missed.id)).toEqual(missed);
      expect((await s.records.history(ws, c.id, missed.id, 10)).map((h) => h.version)).toEqual([1]);

      // Again: the hold resolved before, nothing settles and no record is written.
      const again = await s.contactUnlocks.finishUnlocks(ws, token, [settle(asked[0]!, "x@b.example", 4)], resolution(), [
        showing(missed, { email: "x@b.example" }, [email]),
      ]);
      expect(again).toEqual({ settled: [], resolution: done.resolution, written: [] });
      // Another token settles nothing, so writes nothing; another workspace's record is never written.
      const stranger = await workspace();
      const theirs = collectionFixture(stranger) as Collection;
      await s.collections.insert(theirs);
      const foreign = await storedRecord(theirs, person);
      const other = uuidv7();
      const u = unlockOf(ws, uuidv7(), other, "linkedin");
      await s.contactUnlocks.beginUnlocks([u], null, staleBefore());
      const key = `${u.entity_id}:linkedin`;
      expect(
        await s.contactUnlocks.finishUnlocks(ws, uuidv7(), [settle(u, "in/x", 0)], resolution(), [
          showing(missed, { linkedin_url: "in/x" }, [key]),
        ]),
      ).toEqual({ settled: [], resolution: null, written: [] });
      const own = showing(missed, { linkedin_url: "in/x" }, [key]);
      expect(
        await s.contactUnlocks.finishUnlocks(ws, other, [settle(u, "in/x", 0)], resolution(), [
          showing(foreign, { linkedin_url: "in/x" }, [key]),
          own,
        ]),
      ).toEqual({ settled: [key], resolution: null, written: [missed.id] });
      expect(await s.records.get(stranger, theirs.id, foreign.id)).toEqual(foreign);
      expect(await s.records.get(ws, c.id, missed.id)).toEqual(own.write.record);
    });

    test("ContactUnlockStore.finishUnlocks(): 20 concurrent finishes of one account each write their own record once; a record all of them show is written by exactly one", async () => {
      const ws = await workspace();
      await grant(ws, 1_000);
      const c = collectionFixture(ws) as Collection;
      await s.collections.insert(c);
      const shared = await storedRecord(c, null);
      const prepared = await Promise.all(Array.from({ length: 20 }, async (_, i) => {
        const entity = uuidv7();
        const token = uuidv7();
        const u = unlockOf(ws, entity, token);
        const own = await storedRecord(c, entity);
        const begun = await s.contactUnlocks.beginUnlocks(
          [u],
          { amount: 4, reason: `unlock ${i}`, lease_until: leaseAhead() },
          staleBefore(),
        );
        expect(begun.ok).toBe(true);
        return { i, token, u, own, key: `${entity}:email` };
      }));
      const runs = await Promise.all(prepared.map(async (r) => {
        const writes = [showing(r.own, { email: `${r.i}@b.example` }, [r.key]), showing(shared, { email: `${r.i}@b.example` }, [r.key])];
        const done = await s.contactUnlocks.finishUnlocks(ws, r.token, [settle(r.u, `${r.i}@b.example`, 4)], resolution(), writes);
        return { ...r, writes, done };
      }));
      for (const r of runs) {
        expect(r.done.resolution).toMatchObject({ type: "capture", amount: -4 });
        expect(r.done.written).toContain(r.own.id);
        expect(await s.records.get(ws, c.id, r.own.id)).toEqual(r.writes[0]!.write.record);
      }
      const winners = runs.filter((r) => r.done.written?.includes(shared.id));
      expect(winners).toHaveLength(1);
      expect(await s.records.get(ws, c.id, shared.id)).toEqual(winners[0]!.writes[1]!.write.record);
      const history = await s.records.history(ws, c.id, shared.id, 50);
      expect(history.map((h) => h.version)).toEqual([2, 1]);
      expect(history[0]).toEqual(winners[0]!.writes[1]!.write.change);
      expect(await s.creditLedger.totals(ws)).toMatchObject({ balance: 920, held: 0 });
      expect((await s.records.getMany(ws, c.id, runs.map((r) => r.own.id))).sort(byId)).toEqual(
        runs.map((r) => r.writes[0]!.write.record).sort(byId),
      );
    });

    test("WorkspaceStore.delete() removes the workspace's unlocks and the leases of their holds", async () => {
      const ws = await workspace();
      await grant(ws, 20);
      const entity = uuidv7();
      const settled = uuidv7();
      expect((await s.contactUnlocks.beginUnlocks([unlockOf(ws, entity, settled)], null, staleBefore())).ok).toBe(true);
      await s.contactUnlocks.finishUnlocks(ws, settled, [settle(unlockOf(ws, entity, settled), "a@b.example", 0)], resolution());
      const held = uuidv7();
      const lease_until = "2001-01-01T00:00:00.000Z";
      expect(
        (await s.contactUnlocks.beginUnlocks([unlockOf(ws, uuidv7(), held)], { amount: 4, reason: null, lease_until }, staleBefore())).ok,
      )
        .toBe(true);
      expect((await s.contactUnlocks.expiredUnlocks("2001-01-01T00:00:01.000Z", 1_000)).map((l) => l.token)).toContain(held);
      expect(await s.workspaces.delete(ws)).toBe(true);
      expect(await s.contactUnlocks.unlocksOf(ws, [entity])).toEqual([]);
      expect((await s.contactUnlocks.expiredUnlocks("2001-01-01T00:00:01.000Z", 1_000)).filter((l) => l.workspace_id === ws)).toEqual([]);
    });
  });
}
