import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import postgres from "postgres";
import { type AppServer, bootstrapWorkspace, PROJECT_ROOT, startAppServer } from "../support/app-server.ts";
import { spawnChild } from "../support/child-process.ts";
import { type PostgresServer, startPostgres } from "../support/postgres-server.ts";
import { openPostgresJobQueue } from "../../adapters/bullmq/postgres.ts";
import { jobKind } from "../../core/jobs/kind.ts";
import { Type } from "@sinclair/typebox";

/**
 * A crash of PostgreSQL under load, as an operator would meet it
 * (docs/decisions/054-database-outages.md): `kill -9` of the postmaster and every backend while a
 * server process (`bun server/main.ts`, BullMQ on the same PostgreSQL) serves reads, writes and
 * idempotent credit grants, then a restart on the same data directory and port. Then the same
 * server is stopped with SIGTERM while a request is held in flight, and a worker with SIGINT.
 */
const STATEMENT_MS = 3_000;
/** How long any request may take: the statement timeout, the driver's grace, and room for a busy machine. */
const BOUND_MS = STATEMENT_MS + 1_000 + 4_000;
/** PostgreSQL accepting connections again, every request succeeds within this. */
const RECOVERY_MS = 5_000;
const SHUTDOWN_MS = 5_000;
const OPERATOR = "crash-test-operator-key-crash-test-operator";

let pg: PostgresServer;
let server: AppServer;
const lines: string[] = [];
let slug: string;
let key: string;

beforeAll(async () => {
  // Commits durable against a crash of PostgreSQL (the throwaway default, synchronous_commit=off,
  // acknowledges commits that a kill -9 then loses; fsync=off only matters if the machine dies).
  pg = await startPostgres({ settings: { synchronous_commit: "on" } });
  server = await startAppServer({
    name: "crash-server",
    databaseUrl: pg.url,
    env: {
      SECRET_KEY: "crash-test-secret-crash-test-secret-0123",
      PLATFORM_ADMIN_KEY: OPERATOR,
      LOG_LEVEL: "info",
      DB_STATEMENT_TIMEOUT_MS: String(STATEMENT_MS),
      DB_CONNECT_TIMEOUT_MS: "2000",
      SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_MS),
      RATE_LIMIT_PER_KEY: "0",
      REDIS_URL: undefined,
      MONGO_URL: undefined,
    },
    onLine: (line) => lines.push(line),
  });
  ({ slug, apiKey: key } = await bootstrapWorkspace(server.origin, "crash"));
});

afterAll(async () => {
  await server?.stop();
  await pg?.stop();
});

interface Outcome {
  kind: string;
  /** ms since the load started */
  at: number;
  ms: number;
  status: number;
  code?: string;
  retryAfter?: string | null;
  error?: string;
}

async function send(kind: string, t0: number, path: string, init: RequestInit = {}): Promise<Outcome & { body?: any }> {
  const at = performance.now() - t0;
  try {
    const res = await fetch(`${server.origin}/api/v1${path}`, { ...init, signal: AbortSignal.timeout(BOUND_MS * 3) });
    const text = await res.text();
    const body = text ? JSON.parse(text) : null;
    return {
      kind,
      at,
      ms: performance.now() - t0 - at,
      status: res.status,
      code: body?.error?.code,
      retryAfter: res.headers.get("retry-after"),
      body,
    };
  } catch (e) {
    return { kind, at, ms: performance.now() - t0 - at, status: 0, error: String(e) };
  }
}

const json = (body: unknown, headers: Record<string, string> = {}) => ({
  method: "POST",
  headers: { "content-type": "application/json", ...headers },
  body: JSON.stringify(body),
});

describe("a kill -9 of PostgreSQL under load", () => {
  test(
    "requests fail fast with 503 during the outage, all succeed within 5 s of the restart; readiness follows; every log line is JSON",
    async () => {
      const auth = { "x-api-key": key };
      const topic = await send("setup", 0, `/workspaces/${slug}/topics`, json({ title: "Crash notes", body: "kept" }, auth));
      expect(topic.status).toBe(201);
      const topicSlug = topic.body.slug;

      const t0 = performance.now();
      const outcomes: Outcome[] = [];
      const readiness: Outcome[] = [];
      const granted = new Map<string, { status: number; amount: number }>();
      let stop = false;
      let n = 0;

      const loop = async (worker: number) => {
        while (!stop) {
          const i = n++;
          switch (i % 4) {
            case 0:
              outcomes.push(await send("read topic", t0, `/workspaces/${slug}/topics/${topicSlug}`, { headers: auth }));
              break;
            case 1:
              outcomes.push(await send("list topics", t0, `/workspaces/${slug}/topics?limit=5`, { headers: auth }));
              break;
            case 2:
              outcomes.push(await send("create topic", t0, `/workspaces/${slug}/topics`, json({ title: `Note ${i}`, body: "b" }, auth)));
              break;
            default: {
              // Money: a grant under a fresh Idempotency-Key, whose outcome is kept to check the ledger.
              const idem = `grant-${worker}-${i}`;
              const amount = 1 + (i % 7);
              const o = await send(
                "grant",
                t0,
                `/workspaces/${slug}/radar/credits/grant`,
                json({ amount }, { "x-api-key": OPERATOR, "idempotency-key": idem }),
              );
              granted.set(idem, { status: o.status, amount });
              outcomes.push(o);
            }
          }
        }
      };
      const poll = async () => {
        while (!stop) {
          readiness.push(await send("ready", t0, "/health/ready"));
          await Bun.sleep(100);
        }
      };
      const running = [...Array.from({ length: 8 }, (_, w) => loop(w)), poll()];

      await Bun.sleep(1_500);
      const crashAt = performance.now() - t0;
      await pg.crash();
      await Bun.sleep(2_000);
      await pg.restart();
      const upAt = performance.now() - t0;
      await Bun.sleep(RECOVERY_MS + 2_000);
      stop = true;
      await Promise.all(running);

      const ok = (o: Outcome) => o.status >= 200 && o.status < 300;
      const after = outcomes.filter((o) => o.at >= upAt);
      const lastFailure = Math.max(0, ...after.filter((o) => !ok(o)).map((o) => o.at + o.ms - upAt));
      const firstSuccess = Math.min(...after.filter((o) => ok(o) && o.kind !== "read topic").map((o) => o.at + o.ms - upAt));
      console.log(
        `postgres crash: ${outcomes.length} requests; outage ${
          Math.round(upAt - crashAt)
        } ms; after the restart the first write succeeded at +${Math.round(firstSuccess)} ms, the last failure ended at +${
          Math.round(lastFailure)
        } ms; slowest request ${Math.round(Math.max(...outcomes.map((o) => o.ms)))} ms`,
      );

      // The server answered every request (a dropped connection: it died; then say what it said last).
      const dropped = [...outcomes, ...readiness].filter((o) => o.status === 0);
      const lastWords = dropped.length > 0 ? lines.filter((l) => !l.includes('"msg":"request"')).slice(-15) : [];
      expect({ dropped: dropped.slice(0, 3), lastWords }).toEqual({ dropped: [], lastWords: [] });
      // No request hangs: each is answered within its bound.
      expect([...outcomes, ...readiness].filter((o) => o.ms > BOUND_MS)).toEqual([]);
      // A failure is a 503 STORE_UNAVAILABLE with Retry-After, never a 500.
      const failures = outcomes.filter((o) => !ok(o));
      expect(failures.length).toBeGreaterThan(0); // the outage was seen
      for (const o of failures) expect(o).toMatchObject({ status: 503, code: "STORE_UNAVAILABLE", retryAfter: "1" });
      // Within 5 s of PostgreSQL accepting connections, every request succeeds.
      const late = outcomes.filter((o) => o.at >= upAt + RECOVERY_MS);
      expect(late.length).toBeGreaterThan(20);
      expect(late.filter((o) => !ok(o))).toEqual([]);
      expect(lastFailure).toBeLessThan(RECOVERY_MS);

      // Readiness: 200 before, 503 while PostgreSQL is down, 200 again after.
      // (an answer is reused for a second, so from a second after the crash)
      const during = readiness.filter((o) => o.at >= crashAt + 1_200 && o.at + o.ms <= upAt);
      expect(during.length).toBeGreaterThan(0);
      expect(during.every((o) => o.status === 503)).toBe(true);
      expect(readiness.filter((o) => o.at < crashAt).every((o) => o.status === 200)).toBe(true);
      const settled = readiness.filter((o) => o.at >= upAt + RECOVERY_MS);
      expect(settled.length).toBeGreaterThan(0);
      expect(settled.every((o) => o.status === 200)).toBe(true);
      const ready = await send("ready", t0, "/health/ready");
      expect(ready.body).toMatchObject({
        status: "ready",
        checks: { database: { status: "up", required: true }, queue: { status: "up", required: false } },
      });

      // Nothing acknowledged was lost, nothing granted twice: the balance holds every 201 and at
      // most the grants whose answer was a 503 (a connection may die after the commit).
      const sum = (status: (s: number) => boolean) =>
        [...granted.values()].filter((g) => status(g.status)).reduce((total, g) => total + g.amount, 0);
      const balance = (await send("credits", t0, `/workspaces/${slug}/radar/credits`, { headers: auth })).body.balance;
      expect(balance).toBeGreaterThanOrEqual(sum((s) => s === 201));
      expect(balance).toBeLessThanOrEqual(sum((s) => s === 201 || s === 503));
      // An acknowledged key replays at once.
      const [replayKey, replayed] = [...granted].find(([, g]) => g.status === 201)!;
      const replay = await send(
        "replay",
        t0,
        `/workspaces/${slug}/radar/credits/grant`,
        json({ amount: replayed.amount }, { "x-api-key": OPERATOR, "idempotency-key": replayKey }),
      );
      expect(replay.status).toBe(201);
      expect(replay.ms).toBeLessThan(BOUND_MS);

      // BullMQ's pg pools serve again: a radar run started now is run by the queue's worker.
      const search = await send(
        "search",
        t0,
        `/workspaces/${slug}/radar/searches`,
        json({ criterion: { title: "Fintechs", kind: "company", filter: { industries: ["fintech"] } }, max_results: 3 }, auth),
      );
      expect(search.status).toBe(201);
      const run = `/workspaces/${slug}/radar/runs/${search.body.run.id}`;
      expect((await send("price", t0, `${run}/price`, json({}, auth))).status).toBe(201);
      expect(
        (await send("start", t0, `${run}/start`, { method: "POST", headers: { ...auth, "idempotency-key": "run-after-crash" } })).status,
      )
        .toBe(201);
      let state = "";
      for (const until = performance.now() + 20_000; performance.now() < until && state !== "completed"; await Bun.sleep(200)) {
        state = (await send("run", t0, run, { headers: auth })).body.state;
      }
      expect(state).toBe("completed");

      // The server lived through it, and wrote nothing but JSON lines.
      expect(lines.length).toBeGreaterThan(outcomes.length);
      expect(lines.filter((line) => !isJsonObject(line))).toEqual([]);
    },
    120_000,
  );

  test(
    "SIGTERM: new connections are refused, the request in flight finishes, the pools close, exit 0 within SHUTDOWN_TIMEOUT_MS",
    async () => {
      // Hold the workspace's credit account so a grant waits in flight.
      const sql = postgres(pg.url, { max: 1, onnotice: () => {} });
      let release!: () => void;
      const locked = new Promise<void>((resolve) => {
        sql.begin(async (tx) => {
          await tx`select 1 from credit_accounts where workspace_id = (select id from workspaces where slug = ${slug}) for update`;
          resolve();
          await new Promise<void>((r) => (release = r));
        }).catch(() => {});
      });
      await locked;
      const t0 = performance.now();
      const inFlight = send("grant", t0, `/workspaces/${slug}/radar/credits/grant`, json({ amount: 5 }, { "x-api-key": OPERATOR }));
      await Bun.sleep(500);

      const signalled = performance.now();
      process.kill(server.child.pid, "SIGTERM");
      // The listener closes at once: a new connection is refused.
      let refused = false;
      for (const until = performance.now() + 1_000; !refused && performance.now() < until; await Bun.sleep(50)) {
        refused = (await send("health", t0, "/health")).status === 0;
      }
      expect(refused).toBe(true);
      await Bun.sleep(500);
      release();
      const answer = await inFlight;
      expect(answer.status).toBe(201);
      expect(await server.child.exited).toBe(0);
      expect(performance.now() - signalled).toBeLessThan(SHUTDOWN_MS);
      await sql.end({ timeout: 1 });
      const tail = server.child.tail(30);
      expect(tail).toContain('"msg":"shutting down","signal":"SIGTERM"');
      expect(tail).toContain('"msg":"stopped"');
      expect(lines.filter((line) => !isJsonObject(line))).toEqual([]);
    },
    60_000,
  );

  test("npm run worker exits 0 on SIGINT, its pools closed, every line JSON", async () => {
    const workerLines: string[] = [];
    const worker = spawnChild("crash-worker", [process.execPath, `${PROJECT_ROOT}/workers/main.ts`], {
      cwd: PROJECT_ROOT,
      env: {
        DATABASE_URL: pg.url,
        SECRET_KEY: "crash-test-secret-crash-test-secret-0123",
        LOG_LEVEL: "info",
        SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_MS),
        REDIS_URL: undefined,
        MONGO_URL: undefined,
      },
      onLine: (line) => workerLines.push(line),
    });
    try {
      await worker.waitForLine(/"msg":"worker consuming jobs"/, 60_000);
      const signalled = performance.now();
      process.kill(worker.pid, "SIGINT");
      expect({ code: await worker.exited, output: workerLines.slice(-8) }).toMatchObject({ code: 0 });
      expect(performance.now() - signalled).toBeLessThan(SHUTDOWN_MS);
      expect(workerLines.some((l) => l.includes('"msg":"stopped"'))).toBe(true);
      expect(workerLines.filter((line) => !isJsonObject(line))).toEqual([]);
    } finally {
      await worker.stop();
    }
  }, 90_000);
});

describe("BullMQ on a PostgreSQL that is down when the queue opens", () => {
  test("a queue and a worker opened during the outage run jobs once PostgreSQL is back", async () => {
    const note = jobKind({ name: "test.note", payload: Type.Object({ id: Type.String() }), dedupKey: (p) => p.id });
    await pg.crash();
    const logs: string[] = [];
    const q = await openPostgresJobQueue(pg.url, (_level, msg) => void logs.push(msg), {
      name: `crash-${process.pid}`,
      attempts: 1,
      connectTimeoutMs: 1_000,
    });
    const ran: string[] = [];
    q.consume(async (job) => void ran.push((job.payload as { id: string }).id));
    try {
      await Bun.sleep(2_500); // its first connections fail meanwhile
      await pg.restart();
      const up = performance.now();
      // Enqueue as a client would: refused (503) until the queue answers, then accepted.
      for (;;) {
        const refused = await q.enqueue(note, "ws-1", { id: "after" }).then(() => false, () => true);
        if (!refused || performance.now() - up > RECOVERY_MS) break;
        await Bun.sleep(200);
      }
      while (ran.length === 0 && performance.now() - up < RECOVERY_MS + 5_000) await Bun.sleep(100);
      expect(ran).toEqual(["after"]);
      expect(logs).toContain("job worker replaced");
    } finally {
      await q.close(1_000);
    }
  }, 60_000);
});

function isJsonObject(line: string): boolean {
  try {
    const value = JSON.parse(line);
    return typeof value === "object" && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}
