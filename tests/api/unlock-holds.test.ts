import { afterAll, describe, expect, test } from "bun:test";
import postgres from "postgres";
import type { ProspectDirectory } from "../../core/radar/ports.ts";
import { sweepUnlockHolds } from "../../core/contacts/mod.ts";
import { createSampleDirectory } from "../../adapters/radar-sample/directory.ts";
import { bootstrapWorkspace, startAppServer, stopAllAppServers } from "../support/app-server.ts";
import { stopAllChildren } from "../support/child-process.ts";
import { startPdlServer } from "../support/pdl-server.ts";
import { freshDatabase, sharedPostgres } from "../support/postgres-server.ts";
import { makeTestApp } from "../support/test-app.ts";

/**
 * The holds of contact unlocks whose request died between its two writes
 * (docs/decisions/055-unlock-hold-sweep.md): a request that outlives its lease loses its hold to
 * the sweep and charges nothing; a server killed with SIGKILL while an unlock waits for the
 * provider leaves a hold that the restarted server's sweep resolves within its bound, and the
 * workspace can spend those credits again.
 */
const OPERATOR = "op_" + "h".repeat(40);
const PDL_KEY = "pdl-holds-key";

afterAll(async () => {
  await stopAllAppServers();
  await stopAllChildren();
});

/** A directory whose contact lookups wait until released: a provider slower than the lease. */
function slowContacts(inner: ProspectDirectory) {
  let release = () => {};
  const gate = new Promise<void>((r) => (release = r));
  let waiting = 0;
  const directory: ProspectDirectory = {
    name: inner.name,
    count: (q) => inner.count(q),
    search: (q, page) => inner.search(q, page),
    enrich: (kind, ids) => inner.enrich(kind, ids),
    async contacts(id) {
      waiting++;
      await gate;
      return inner.contacts(id);
    },
  };
  return { directory, waiting: () => waiting, release };
}

async function until<T>(what: string, read: () => Promise<T> | T, ok: (v: T) => boolean, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(v)}`);
    await Bun.sleep(25);
  }
}

describe("contact unlock holds whose request died", () => {
  test("an unlock that outlives its lease: the sweep releases its hold, the late finish charges nothing (409), the paths are free again", async () => {
    const slow = slowContacts(createSampleDirectory());
    const t = await makeTestApp(undefined, {
      platformAdminKey: OPERATOR,
      core: { prospects: slow.directory, radarUnlockLeaseMs: 1_000 },
    });
    const { slug, key } = await t.bootstrap("unlock-lease");
    const ws = (path: string) => `/workspaces/${slug}/radar${path}`;
    const credits = async () => (await t.call("GET", ws("/credits"), { key })).body;
    expect((await t.call("POST", ws("/credits/grant"), { key: OPERATOR, body: { amount: 1_000 } })).status).toBe(201);
    const opened = await t.call("POST", ws("/searches"), {
      key,
      body: {
        criterion: { title: "Dutch directors", kind: "person", filter: { countries: ["NL"], seniorities: ["director"] } },
        max_results: 3,
      },
    });
    const { run, search } = opened.body;
    await t.call("POST", ws(`/runs/${run.id}/price`), { key, body: {} });
    expect((await t.call("POST", ws(`/runs/${run.id}/start`), { key })).status).toBe(201);
    const coll = search.collection_id;
    const [a] = (await t.call("GET", `/workspaces/${slug}/collections/${coll}/records?limit=3`, { key })).body.records;
    const paths = (path: string, body: unknown) => t.call("POST", ws(`/collections/${coll}/contact-paths/${path}`), { key, body });
    const before = await credits();
    expect(before.held).toBe(0);

    // The request holds e-mail and phone (4 + 8), then waits on the directory.
    const unlocking = paths("unlock", { record_ids: [a.id], kinds: ["email", "phone"] });
    await until("the lookup", slow.waiting, (n) => n === 1, 10_000);
    expect(await credits()).toMatchObject({ balance: before.balance, held: 12, available: before.balance - 12 });
    // Within its lease the sweep leaves it alone.
    expect(await sweepUnlockHolds(t.core)).toEqual({ resolved: 0, released: 0, captured: 0 });
    await Bun.sleep(1_100);
    expect(await sweepUnlockHolds(t.core)).toEqual({ resolved: 1, released: 12, captured: 0 });
    expect(await credits()).toMatchObject({ balance: before.balance, held: 0, available: before.balance });
    // The keys are free again at once.
    expect((await paths("quote", { record_ids: [a.id], kinds: ["email", "phone"] })).body.items.map((i: any) => i.state)).toEqual([
      "available",
      "available",
    ]);

    // The directory answers now: too late. Nothing is charged or written; the caller is told to retry.
    slow.release();
    const late = await unlocking;
    expect(late.status).toBe(409);
    expect(late.body.error).toMatchObject({ code: "CONFLICT", lease_ms: 1_000, charged_credits: 0 });
    expect(late.body.error.message).toContain("outlived its 1000 ms lease");
    expect(await credits()).toMatchObject({ balance: before.balance, held: 0 });
    const record = (await t.call("GET", `/workspaces/${slug}/collections/${coll}/records/${a.id}`, { key })).body;
    expect(record.fields.email).toBeUndefined();
    const history = (await t.call("GET", ws("/credits/history?limit=2"), { key })).body.entries;
    expect(history.map((e: any) => [e.type, e.held, e.reason])).toEqual([["release", -12, "contact unlock expired"], [
      "hold",
      12,
      "contact unlock",
    ]]);

    // Sent again, it unlocks and pays for what it finds.
    const again = await paths("unlock", { record_ids: [a.id], kinds: ["email", "phone"] });
    expect(again.status).toBe(201);
    const hits = again.body.items.filter((i: any) => i.status === "unlocked");
    expect(hits.length).toBeGreaterThan(0);
    expect(again.body.charged_credits).toBe(hits.reduce((n: number, i: any) => n + i.credits, 0));
    expect(await credits()).toMatchObject({ balance: before.balance - again.body.charged_credits, held: 0 });
  });

  test(
    "PostgreSQL: a server SIGKILLed while an unlock waits on the provider; restarted, its sweep resolves the hold within the bound",
    async () => {
      const LEASE_MS = 2_000;
      const SWEEP_MS = 250;
      const pdl = startPdlServer({ apiKey: PDL_KEY, holdEnrich: true });
      const databaseUrl = await freshDatabase(await sharedPostgres());
      const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
      const env = {
        SECRET_KEY: "unlock-holds-secret-unlock-holds-secret",
        PLATFORM_ADMIN_KEY: OPERATOR,
        RADAR_PROVIDER: "pdl",
        PDL_API_KEY: PDL_KEY,
        PDL_BASE_URL: pdl.url,
        RADAR_UNLOCK_LEASE_MS: String(LEASE_MS),
        RADAR_UNLOCK_SWEEP_MS: String(SWEEP_MS),
        LOG_LEVEL: "warn",
        REDIS_URL: undefined,
        MONGO_URL: undefined,
      };
      try {
        let server = await startAppServer({ name: "unlock-holds-server", databaseUrl, env });
        const { slug, apiKey } = await bootstrapWorkspace(server.origin, "unlock-holds");
        const call = async (method: string, path: string, body?: unknown, key = apiKey) => {
          const res = await fetch(`${server.origin}/api/v1/workspaces/${slug}${path}`, {
            method,
            headers: { "x-api-key": key, ...(body === undefined ? {} : { "content-type": "application/json" }) },
            body: body === undefined ? undefined : JSON.stringify(body),
          });
          return { status: res.status, body: await res.json() as any };
        };
        const credits = async () => (await call("GET", "/radar/credits")).body;

        // Three people (2 credits each), and then exactly what one e-mail + phone unlock holds.
        const opened = await call("POST", "/radar/searches", {
          criterion: { title: "People in the US", kind: "person", filter: { countries: ["US"] } },
          max_results: 3,
        });
        expect(opened.status).toBe(201);
        const runId = opened.body.run.id;
        const coll = opened.body.search.collection_id;
        const quote = (await call("POST", `/radar/runs/${runId}/price`, {})).body.quote;
        expect(quote.max_credits).toBe(6);
        expect((await call("POST", "/radar/credits/grant", { amount: quote.max_credits + 12 }, OPERATOR)).status).toBe(201);
        expect((await call("POST", `/radar/runs/${runId}/start`)).status).toBe(201);
        await until("the run", async () => (await call("GET", `/radar/runs/${runId}`)).body.state, (s) => s === "completed", 60_000);
        expect(await credits()).toMatchObject({ balance: 12, held: 0, available: 12 });
        const [a, b] = (await call("GET", `/collections/${coll}/records?limit=3`)).body.records;

        // The unlock holds its 12 credits, then waits on the provider.
        const unlocking = call("POST", `/radar/collections/${coll}/contact-paths/unlock`, { record_ids: [a.id], kinds: ["email", "phone"] })
          .catch((e: Error) => e);
        await until("the provider call", () => pdl.heldEnrich, (n) => n === 1, 30_000);
        const heldAt = Date.now();
        expect(await credits()).toMatchObject({ balance: 12, held: 12, available: 0 });
        // A workspace at its limit: another unlock is refused while the hold stands.
        const refused = await call("POST", `/radar/collections/${coll}/contact-paths/unlock`, { record_ids: [b.id], kinds: ["email"] });
        expect(refused.status).toBe(402);

        // SIGKILL between the hold and the capture.
        process.kill(server.child.pid, "SIGKILL");
        await server.child.exited;
        expect(await unlocking).toBeInstanceOf(Error);
        await server.stop();
        // No process sweeps: the hold stays past its lease.
        await Bun.sleep(Math.max(0, heldAt + LEASE_MS + 500 - Date.now()));
        const [account] = await sql`select balance::int, held::int from credit_accounts`;
        expect(account).toEqual({ balance: 12, held: 12 });
        expect((await sql`select count(*)::int as n from radar_unlock_leases`)[0]!.n).toBe(1);

        // Restarted: its first sweep (a second after start, then every RADAR_UNLOCK_SWEEP_MS) resolves it.
        server = await startAppServer({ name: "unlock-holds-server-2", databaseUrl, env });
        const ready = Date.now();
        await until("the sweep", credits, (c) => c.held === 0, 30_000);
        const tookMs = Date.now() - ready;
        console.log(`  hold resolved ${tookMs} ms after the restarted server answered (lease ended before it started)`);
        // The bound: the lease (already over) + one sweep interval after the sweeping process starts,
        // plus its first-sweep delay (1 s) and a margin for a loaded test machine.
        expect(tookMs).toBeLessThan(1_000 + SWEEP_MS + 3_000);
        expect(await credits()).toMatchObject({ balance: 12, held: 0, available: 12 });
        const history = (await call("GET", "/radar/credits/history?limit=2")).body.entries;
        expect(history.map((e: any) => [e.type, e.amount, e.held, e.reason])).toEqual([
          ["release", 0, -12, "contact unlock expired"],
          ["hold", 0, 12, "contact unlock"],
        ]);
        expect((await sql`select count(*)::int as n from radar_unlock_leases`)[0]!.n).toBe(0);

        // Whole again: the paths the dead request claimed are free and the credits spendable.
        pdl.releaseEnrich();
        const unlocked = await call("POST", `/radar/collections/${coll}/contact-paths/unlock`, {
          record_ids: [a.id],
          kinds: ["email", "phone"],
        });
        expect(unlocked.status).toBe(201);
        expect(unlocked.body.items.every((i: any) => i.status !== "already_unlocked")).toBe(true);
        const charged = unlocked.body.charged_credits;
        expect(charged).toBe(
          unlocked.body.items.filter((i: any) => i.status === "unlocked").reduce((n: number, i: any) => n + i.credits, 0),
        );
        expect(await credits()).toMatchObject({ balance: 12 - charged, held: 0, available: 12 - charged });
      } finally {
        await sql.end();
        await pdl.stop();
      }
    },
    240_000,
  );
});
