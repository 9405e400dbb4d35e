import type { TestApi } from "./kit/test-api.ts";
import type { LedgerOp } from "../../core/credits/ledger-rules.ts";
import type { IdempotencyRecord, LedgerEntry } from "../../core/credits/model.ts";
import type { LedgerOutcome, LedgerRequest } from "../../core/credits/ports.ts";
import { uuidv7 } from "../../core/kernel/ids.ts";
import type { Stores } from "../../core/stores.ts";
import { bootstrapped, stamp } from "./fixtures.ts";

/**
 * The contract of the credit stores (core/credits/ports.ts): the ledger never lets available
 * credits go below 0, whatever runs concurrently; an idempotency key writes once; a hold resolves
 * once. Every adapter runs it; the memory adapter is the reference. Each test makes its own workspace.
 */
export function runCreditStoresContract(name: string, open: () => Promise<Stores>, api: TestApi) {
  const { afterAll, beforeAll, describe, expect, test } = api;
  describe(`${name}: credit ledger and idempotency stores`, () => {
    let s: Stores;
    beforeAll(async () => {
      s = await open();
    });
    afterAll(async () => {
      await s?.close();
    });

    const workspace = async () => (await bootstrapped(s)).workspace.id;
    const req = (ws: string, op: LedgerOp, over: Partial<LedgerRequest> = {}): LedgerRequest => ({
      workspace_id: ws,
      id: uuidv7(),
      at: stamp(),
      op,
      ...over,
    });
    const append = (ws: string, op: LedgerOp, over: Partial<LedgerRequest> = {}) => s.creditLedger.append(req(ws, op, over));
    const entryOf = (o: LedgerOutcome): LedgerEntry => {
      if (!o.ok) throw new Error(`expected an entry, got ${o.reason}`);
      return o.entry;
    };

    test("CreditLedgerStore.totals() of a workspace with no entries is all zeros", async () => {
      expect(await s.creditLedger.totals(await workspace())).toEqual({ seq: 0, balance: 0, held: 0 });
    });

    test("CreditLedgerStore.append() numbers entries 1, 2, 3 with running totals", async () => {
      const ws = await workspace();
      const grant = entryOf(await append(ws, { type: "grant", amount: 10 }, { reason: "welcome" }));
      expect(grant).toMatchObject({ seq: 1, type: "grant", amount: 10, held: 0, balance_after: 10, held_after: 0, reason: "welcome" });
      const hold = entryOf(await append(ws, { type: "hold", amount: 4 }, { run_id: "run-1" }));
      expect(hold).toMatchObject({ seq: 2, type: "hold", amount: 0, held: 4, balance_after: 10, held_after: 4, run_id: "run-1" });
      const debit = entryOf(await append(ws, { type: "debit", amount: 6 }, { record_id: "rec-1" }));
      expect(debit).toMatchObject({ seq: 3, type: "debit", amount: -6, held: 0, balance_after: 4, held_after: 4, record_id: "rec-1" });
      expect(await s.creditLedger.totals(ws)).toEqual({ seq: 3, balance: 4, held: 4 });
      expect(await s.creditLedger.get(ws, debit.id)).toEqual(debit);
    });

    test("CreditLedgerStore.append() refuses a debit or hold beyond what is available, writing nothing", async () => {
      const ws = await workspace();
      expect(await append(ws, { type: "debit", amount: 1 })).toEqual({ ok: false, reason: "insufficient", required: 1, available: 0 });
      await append(ws, { type: "grant", amount: 5 });
      await append(ws, { type: "hold", amount: 3 });
      expect(await append(ws, { type: "hold", amount: 3 })).toEqual({ ok: false, reason: "insufficient", required: 3, available: 2 });
      expect(await append(ws, { type: "debit", amount: 3 })).toEqual({ ok: false, reason: "insufficient", required: 3, available: 2 });
      expect(await s.creditLedger.totals(ws)).toEqual({ seq: 2, balance: 5, held: 3 });
    });

    test("CreditLedgerStore.append() resolves a hold once: the capture is charged, the rest released", async () => {
      const ws = await workspace();
      await append(ws, { type: "grant", amount: 10 });
      const hold = entryOf(await append(ws, { type: "hold", amount: 6 }, { run_id: "r" }));
      expect(await append(ws, { type: "resolve", hold_id: hold.id, capture: 7 })).toEqual({
        ok: false,
        reason: "capture_exceeds_hold",
        held: 6,
      });
      const capture = entryOf(await append(ws, { type: "resolve", hold_id: hold.id, capture: 4 }, { run_id: "r" }));
      expect(capture).toMatchObject({ type: "capture", amount: -4, held: -6, balance_after: 6, held_after: 0, hold_id: hold.id });
      const again = await append(ws, { type: "resolve", hold_id: hold.id, capture: 0 });
      expect(again).toEqual({ ok: false, reason: "hold_resolved", resolution: capture });
      const other = entryOf(await append(ws, { type: "hold", amount: 2 }));
      expect(entryOf(await append(ws, { type: "resolve", hold_id: other.id, capture: 0 }))).toMatchObject({
        type: "release",
        amount: 0,
        held: -2,
      });
      expect(await append(ws, { type: "resolve", hold_id: uuidv7(), capture: 0 })).toEqual({ ok: false, reason: "hold_not_found" });
      expect(await append(ws, { type: "resolve", hold_id: capture.id, capture: 0 })).toEqual({ ok: false, reason: "hold_not_found" });
      expect(await s.creditLedger.totals(ws)).toMatchObject({ balance: 6, held: 0 });
    });

    test("CreditLedgerStore.append() with an idempotency key already written answers its entry and writes nothing", async () => {
      const ws = await workspace();
      const first = entryOf(await append(ws, { type: "grant", amount: 3 }, { idempotency_key: "k1" }));
      const again = await append(ws, { type: "grant", amount: 99 }, { idempotency_key: "k1" });
      expect(again).toEqual({ ok: true, entry: first, replayed: true });
      expect(await s.creditLedger.totals(ws)).toMatchObject({ seq: 1, balance: 3 });
    });

    test("CreditLedgerStore.append(): 1,000 concurrent debits of 1 on a balance of 500, exactly 500 succeed", async () => {
      const ws = await workspace();
      await append(ws, { type: "grant", amount: 500 });
      const outcomes = await Promise.all(Array.from({ length: 1000 }, () => append(ws, { type: "debit", amount: 1 })));
      expect(outcomes.filter((o) => o.ok)).toHaveLength(500);
      expect(outcomes.filter((o) => !o.ok && o.reason === "insufficient")).toHaveLength(500);
      expect(await s.creditLedger.totals(ws)).toEqual({ seq: 501, balance: 0, held: 0 });
      // The whole chain: seqs without gaps, totals never below 0 available.
      const entries = await s.creditLedger.history(ws, {}, { limit: 1000 });
      expect(entries.map((e) => e.seq)).toEqual(Array.from({ length: 501 }, (_, i) => 501 - i));
      expect(entries.every((e) => e.balance_after - e.held_after >= 0)).toBe(true);
    });

    test("CreditLedgerStore.append(): concurrent holds never hold more than the balance", async () => {
      const ws = await workspace();
      await append(ws, { type: "grant", amount: 10 });
      const outcomes = await Promise.all(Array.from({ length: 40 }, () => append(ws, { type: "hold", amount: 3 })));
      expect(outcomes.filter((o) => o.ok)).toHaveLength(3);
      expect(await s.creditLedger.totals(ws)).toMatchObject({ balance: 10, held: 9 });
    });

    test("CreditLedgerStore.append(): concurrent resolutions of one hold, exactly one resolves it", async () => {
      const ws = await workspace();
      await append(ws, { type: "grant", amount: 10 });
      const hold = entryOf(await append(ws, { type: "hold", amount: 8 }));
      const outcomes = await Promise.all(
        Array.from({ length: 20 }, (_, i) => append(ws, { type: "resolve", hold_id: hold.id, capture: i % 9 })),
      );
      const won = outcomes.filter((o) => o.ok);
      expect(won).toHaveLength(1);
      expect(outcomes.filter((o) => !o.ok && o.reason === "hold_resolved")).toHaveLength(19);
      const captured = -entryOf(won[0]!).amount;
      expect(await s.creditLedger.totals(ws)).toMatchObject({ balance: 10 - captured, held: 0 });
    });

    test("CreditLedgerStore.append(): concurrent writes under one idempotency key write one entry", async () => {
      const ws = await workspace();
      await append(ws, { type: "grant", amount: 100 });
      const outcomes = await Promise.all(
        Array.from({ length: 20 }, () => append(ws, { type: "debit", amount: 7 }, { idempotency_key: "once" })),
      );
      const entries = outcomes.map(entryOf);
      expect(new Set(entries.map((e) => e.id)).size).toBe(1);
      expect(outcomes.filter((o) => o.ok && !o.replayed)).toHaveLength(1);
      expect(await s.creditLedger.totals(ws)).toMatchObject({ seq: 2, balance: 93 });
    });

    test("CreditLedgerStore.append(): concurrent first writes of a workspace with no account all apply (none is refused as insufficient)", async () => {
      // Repeated on fresh workspaces: the race (the account opened by another write between this
      // write's attempt and its check) is narrow.
      for (let round = 0; round < 5; round++) {
        const ws = await workspace();
        const outcomes = await Promise.all(Array.from({ length: 12 }, () => append(ws, { type: "grant", amount: 5 })));
        expect(outcomes.filter((o) => !o.ok)).toEqual([]);
        expect(await s.creditLedger.totals(ws)).toEqual({ seq: 12, balance: 60, held: 0 });
      }
    });
    test("CreditLedgerStore.history() is newest first, filters by type and run, pages before a seq", async () => {
      const ws = await workspace();
      await append(ws, { type: "grant", amount: 50 });
      for (let i = 0; i < 5; i++) await append(ws, { type: "debit", amount: 1 }, { run_id: i % 2 === 0 ? "even" : "odd" });
      const all = await s.creditLedger.history(ws, {}, { limit: 10 });
      expect(all.map((e) => e.seq)).toEqual([6, 5, 4, 3, 2, 1]);
      expect((await s.creditLedger.history(ws, {}, { limit: 2, beforeSeq: 5 })).map((e) => e.seq)).toEqual([4, 3]);
      expect((await s.creditLedger.history(ws, { type: "grant" }, { limit: 10 })).map((e) => e.seq)).toEqual([1]);
      expect((await s.creditLedger.history(ws, { run_id: "even" }, { limit: 10 })).map((e) => e.seq)).toEqual([6, 4, 2]);
      expect((await s.creditLedger.history(ws, { type: "debit", run_id: "odd" }, { limit: 1, beforeSeq: 5 })).map((e) => e.seq)).toEqual([
        3,
      ]);
      const other = await workspace();
      expect(await s.creditLedger.history(other, {}, { limit: 10 })).toEqual([]);
      expect(await s.creditLedger.get(other, all[0]!.id)).toBeNull();
    });

    const record = (ws: string, key: string, over: Partial<IdempotencyRecord> = {}): IdempotencyRecord => ({
      workspace_id: ws,
      scope: "credits.grant",
      key,
      fingerprint: "f1",
      state: "pending",
      status: null,
      body: null,
      created_at: new Date().toISOString(),
      expires_at: new Date(Date.now() + 86_400_000).toISOString(),
      ...over,
    });
    const longAgo = new Date(Date.now() - 3_600_000).toISOString();

    test("IdempotencyStore.begin() starts a key once; the finished answer is replayed; another request is a mismatch", async () => {
      const ws = await workspace();
      expect(await s.idempotency.begin(record(ws, "a"), longAgo)).toEqual({ kind: "started" });
      expect(await s.idempotency.begin(record(ws, "a"), longAgo)).toEqual({ kind: "pending" });
      expect(await s.idempotency.begin(record(ws, "a", { fingerprint: "f2" }), longAgo)).toEqual({ kind: "mismatch" });
      const body = { entry: { id: "x", "a.b": 1, $c: [1, { d: null }] } };
      await s.idempotency.finish(ws, "credits.grant", "a", { status: 201, body });
      expect(await s.idempotency.begin(record(ws, "a"), longAgo)).toMatchObject({
        kind: "done",
        record: { status: 201, body, state: "done" },
      });
      // Keys are scoped by workspace and by operation.
      expect(await s.idempotency.begin(record(await workspace(), "a"), longAgo)).toEqual({ kind: "started" });
      expect(await s.idempotency.begin(record(ws, "a", { scope: "radar.start" }), longAgo)).toEqual({ kind: "started" });
    });

    test("IdempotencyStore.begin() replaces an expired record and a pending one gone stale; abandon() frees a key", async () => {
      const ws = await workspace();
      await s.idempotency.begin(record(ws, "e", { expires_at: longAgo }), longAgo);
      await s.idempotency.finish(ws, "credits.grant", "e", { status: 201, body: {} });
      expect(await s.idempotency.begin(record(ws, "e", { fingerprint: "f2" }), longAgo)).toEqual({ kind: "started" });
      await s.idempotency.begin(record(ws, "p", { created_at: longAgo }), longAgo);
      expect(await s.idempotency.begin(record(ws, "p"), new Date().toISOString())).toEqual({ kind: "started" });
      await s.idempotency.begin(record(ws, "x"), longAgo);
      await s.idempotency.abandon(ws, "credits.grant", "x", "f1");
      expect(await s.idempotency.begin(record(ws, "x", { fingerprint: "f3" }), longAgo)).toEqual({ kind: "started" });
    });

    test("IdempotencyStore.begin(): of concurrent claims of one key, exactly one starts", async () => {
      const ws = await workspace();
      const begun = await Promise.all(Array.from({ length: 20 }, () => s.idempotency.begin(record(ws, "race"), longAgo)));
      expect(begun.filter((b) => b.kind === "started")).toHaveLength(1);
      expect(begun.filter((b) => b.kind === "pending")).toHaveLength(19);
    });

    test("WorkspaceStore.delete() removes the workspace's ledger", async () => {
      const b = await bootstrapped(s);
      const ws = b.workspace.id;
      await append(ws, { type: "grant", amount: 5 });
      await s.idempotency.begin(record(ws, "gone"), longAgo);
      expect(await s.workspaces.delete(ws)).toBe(true);
      expect(await s.creditLedger.totals(ws)).toEqual({ seq: 0, balance: 0, held: 0 });
      expect(await s.creditLedger.history(ws, {}, { limit: 10 })).toEqual([]);
    });
  });
}
