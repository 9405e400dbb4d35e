import { beforeAll, describe, expect, test } from "bun:test";
import type { WorkspaceEvent } from "../../core/events/event.ts";
import { DEFAULT_PRICES } from "../../core/contacts/prices.ts";
import { createMemoryEventBus } from "../../adapters/memory/event-bus.ts";
import { type Personas, personas } from "../support/personas.ts";
import { makeTestApp, type TestApp } from "../support/test-app.ts";

const OPERATOR = "op_" + "k".repeat(40);

describe("credits API", () => {
  let t: TestApp;
  let p: Personas;
  let other: { slug: string; key: string };
  const events: WorkspaceEvent[] = [];
  const base = "/workspaces/credits/radar/credits";
  const grant = (body: unknown, headers: Record<string, string> = {}, key = OPERATOR, path = `${base}/grant`) =>
    t.call("POST", path, { key, body, headers });

  beforeAll(async () => {
    const bus = createMemoryEventBus();
    t = await makeTestApp(undefined, { events: bus, platformAdminKey: OPERATOR });
    p = await personas(t, "credits");
    other = await t.bootstrap("credits-other");
    const ws = await t.core.stores.workspaces.getBySlug("credits");
    bus.subscribe(ws!.id, (e) => void events.push(e));
  });

  test("GET /radar/credits of a new workspace: zeros and the default prices, for every member and service key", async () => {
    for (const key of [p.owner, p.member, p.service]) {
      const res = await t.call("GET", base, { key });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ balance: 0, held: 0, available: 0, prices: DEFAULT_PRICES });
    }
  });

  test("POST /radar/credits/grant by the operator: 201 with the entry and balance, X-Credits-Charged 0, an event", async () => {
    const res = await grant({ amount: 500, reason: "trial" });
    expect(res.status).toBe(201);
    expect(res.headers.get("x-credits-charged")).toBe("0");
    expect(res.headers.get("idempotent-replayed")).toBeNull();
    expect(res.body.entry).toMatchObject({ seq: 1, type: "grant", amount: 500, held: 0, balance_after: 500, reason: "trial" });
    expect(res.body.balance).toEqual({ balance: 500, held: 0, available: 500 });
    expect((await t.call("GET", base, { key: p.member })).body).toMatchObject({ balance: 500, available: 500 });
    expect(events.filter((e) => e.type === "credits.granted").map((e) => e.data)).toContainEqual({
      entry_id: res.body.entry.id,
      amount: 500,
      balance: 500,
    });
  });

  test("POST /radar/credits/grant: owners, admins, members and service keys are 403; a wrong key 401; none 401", async () => {
    for (const key of [p.owner, p.admin, p.member, p.service]) {
      const res = await grant({ amount: 1 }, {}, key);
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe("FORBIDDEN");
    }
    expect((await grant({ amount: 1 }, {}, OPERATOR + "x")).status).toBe(401);
    expect((await t.call("POST", `${base}/grant`, { body: { amount: 1 } })).status).toBe(401);
    // The operator key is no workspace credential anywhere else.
    expect((await t.call("GET", base, { key: OPERATOR })).status).toBe(401);
    expect((await t.call("GET", "/workspaces/credits", { key: OPERATOR })).status).toBe(401);
  });

  test("POST /radar/credits/grant: credentials are checked before the body; tenancy is 404", async () => {
    expect((await grant({ nope: 1 }, {}, p.member)).status).toBe(403);
    expect((await grant({ amount: 1 }, {}, other.key)).status).toBe(404);
    expect((await grant({ amount: 1 }, {}, OPERATOR, "/workspaces/no-such-ws/radar/credits/grant")).status).toBe(404);
    expect((await t.call("GET", base, { key: other.key })).status).toBe(404);
    expect((await t.call("GET", `${base}/history`, { key: other.key })).status).toBe(404);
  });

  test("POST /radar/credits/grant: strict body, amount 1 to 10^9", async () => {
    for (const body of [{ amount: 1, extra: true }, { amount: 0 }, { amount: 1_000_000_001 }, { amount: 1.5 }, {}, { amount: "5" }]) {
      const res = await grant(body);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("VALIDATION_FAILED");
    }
  });

  test("POST /radar/credits/grant with an Idempotency-Key: replayed for the same body, 409 for another, 400 over 255 characters", async () => {
    const before = (await t.call("GET", base, { key: p.owner })).body.balance;
    const first = await grant({ amount: 7 }, { "idempotency-key": "grant-7" });
    expect(first.status).toBe(201);
    const again = await grant({ amount: 7 }, { "idempotency-key": "grant-7" });
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.headers.get("x-credits-charged")).toBe("0");
    expect(again.body).toEqual(first.body);
    const reused = await grant({ amount: 8 }, { "idempotency-key": "grant-7" });
    expect(reused.status).toBe(409);
    expect(reused.body.error.code).toBe("IDEMPOTENCY_KEY_REUSED");
    expect((await t.call("GET", base, { key: p.owner })).body.balance).toBe(before + 7);
    const long = await grant({ amount: 1 }, { "idempotency-key": "k".repeat(256) });
    expect(long.status).toBe(400);
    expect(long.body.error.code).toBe("VALIDATION_FAILED");
  });

  test("POST /radar/credits/grant: concurrent requests under one Idempotency-Key grant once", async () => {
    const before = (await t.call("GET", base, { key: p.owner })).body.balance;
    const answers = await Promise.all(Array.from({ length: 10 }, () => grant({ amount: 3 }, { "idempotency-key": "burst" })));
    const granted = answers.filter((a) => a.status === 201);
    expect(granted.length).toBeGreaterThanOrEqual(1);
    expect(new Set(granted.map((a) => a.body.entry.id)).size).toBe(1);
    // The others saw the first still running (409 CONFLICT): retrying replays it.
    for (const a of answers.filter((x) => x.status !== 201)) expect(a.body.error.code).toBe("CONFLICT");
    expect((await grant({ amount: 3 }, { "idempotency-key": "burst" })).headers.get("idempotent-replayed")).toBe("true");
    expect((await t.call("GET", base, { key: p.owner })).body.balance).toBe(before + 3);
  });

  test("GET /radar/credits/history: newest first, paged by cursor, filtered by type and run", async () => {
    const slug = "credits-history";
    const { key } = await t.bootstrap(slug);
    const path = `/workspaces/${slug}/radar/credits`;
    for (let i = 1; i <= 5; i++) expect((await t.call("POST", `${path}/grant`, { key: OPERATOR, body: { amount: i } })).status).toBe(201);
    const ws = await t.core.stores.workspaces.getBySlug(slug);
    const runId = "0190c2a4-8d1e-7000-8000-000000000001";
    await t.core.stores.creditLedger.append({
      workspace_id: ws!.id,
      id: crypto.randomUUID(),
      at: new Date().toISOString(),
      op: { type: "debit", amount: 2 },
      run_id: runId,
    });
    const page1 = await t.call("GET", `${path}/history?limit=4`, { key });
    expect(page1.status).toBe(200);
    expect(page1.body.entries.map((e: any) => e.seq)).toEqual([6, 5, 4, 3]);
    const page2 = await t.call("GET", `${path}/history?limit=4&cursor=${page1.body.nextCursor}`, { key });
    expect(page2.body.entries.map((e: any) => e.seq)).toEqual([2, 1]);
    expect(page2.body.nextCursor).toBeNull();
    const grants = await t.call("GET", `${path}/history?type=grant`, { key });
    expect(grants.body.entries.map((e: any) => e.amount)).toEqual([5, 4, 3, 2, 1]);
    const run = await t.call("GET", `${path}/history?run_id=${runId}`, { key });
    expect(run.body.entries).toHaveLength(1);
    expect(run.body.entries[0]).toMatchObject({ type: "debit", amount: -2, balance_after: 13, run_id: runId });
    // A cursor continues its own listing only.
    expect((await t.call("GET", `${path}/history?type=debit&cursor=${page1.body.nextCursor}`, { key })).status).toBe(400);
    for (const q of ["limit=0", "limit=201", "type=refund", "run_id=nope", "extra=1"]) {
      expect((await t.call("GET", `${path}/history?${q}`, { key })).status).toBe(400);
    }
    expect((await t.call("GET", path, { key })).body).toMatchObject({ balance: 13, held: 0, available: 13 });
  });
});

describe("credits API without an operator key", () => {
  test("POST /radar/credits/grant is 403 for every workspace key, 401 for a key that is none", async () => {
    const t = await makeTestApp();
    const { key } = await t.bootstrap("no-operator");
    const res = await t.call("POST", "/workspaces/no-operator/radar/credits/grant", { key, body: { amount: 1 } });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("FORBIDDEN");
    const wrong = await t.call("POST", "/workspaces/no-operator/radar/credits/grant", { key: OPERATOR, body: { amount: 1 } });
    expect(wrong.status).toBe(401);
  });
});
