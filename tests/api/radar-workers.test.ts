import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bootstrapWorkspace, PROJECT_ROOT, startAppServer, stopAllAppServers } from "../support/app-server.ts";
import { spawnChild, stopAllChildren } from "../support/child-process.ts";
import { startPdlServer } from "../support/pdl-server.ts";
import { freshDatabase, sharedPostgres } from "../support/postgres-server.ts";

/**
 * Radar runs on a real deployment shape: a server that leaves jobs to worker processes
 * (`WORKERS=off`), BullMQ on PostgreSQL, People Data Labs' protocol served slowly on loopback so
 * a run spans seconds. A worker is SIGKILLed in the middle of a run; another finishes it, and the
 * run's records and charge count once.
 */
const OPERATOR = "op_" + "w".repeat(40);
const PDL_KEY = "pdl-test-key";

afterAll(async () => {
  await stopAllAppServers();
  await stopAllChildren();
});

describe("radar runs with worker processes (BullMQ on PostgreSQL)", () => {
  test("a worker SIGKILLed mid-run: another takes the run over after its lease; records and charge once", async () => {
    const pdl = startPdlServer({ apiKey: PDL_KEY, searchDelayMs: 700 });
    const databaseUrl = await freshDatabase(await sharedPostgres());
    const env = {
      SECRET_KEY: "radar-workers-secret-radar-workers-secret",
      PLATFORM_ADMIN_KEY: OPERATOR,
      RADAR_PROVIDER: "pdl",
      PDL_API_KEY: PDL_KEY,
      PDL_BASE_URL: pdl.url,
      JOB_LEASE_MS: "2000",
      LOG_LEVEL: "warn",
      REDIS_URL: undefined,
      MONGO_URL: undefined,
    };
    const server = await startAppServer({ name: "radar-server", databaseUrl, env: { ...env, WORKERS: "off" } });
    const { slug, apiKey } = await bootstrapWorkspace(server.origin, "radar-workers");
    const call = async (method: string, path: string, body?: unknown, key = apiKey) => {
      const res = await fetch(`${server.origin}/api/v1/workspaces/${slug}${path}`, {
        method,
        headers: { "x-api-key": key, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: await res.json() as any };
    };
    expect((await call("POST", "/radar/credits/grant", { amount: 10_000 }, OPERATOR)).status).toBe(201);
    const opened = await call("POST", "/radar/searches", {
      criterion: { title: "People in the US", kind: "person", filter: { countries: ["US"] } },
      max_results: 500,
    });
    expect(opened.status).toBe(201);
    const runId = opened.body.run.id;
    const collectionId = opened.body.search.collection_id;
    const quote = (await call("POST", `/radar/runs/${runId}/price`, {})).body.quote;
    expect(quote.estimated_results).toBe(500);

    const workerEnv = { ...env, LOG_LEVEL: "info", DATABASE_URL: databaseUrl, DATA_DIR: mkdtempSync(join(tmpdir(), "wks-worker-")) };
    const worker = (name: string) =>
      spawnChild(name, [process.execPath, join(PROJECT_ROOT, "workers/main.ts")], { cwd: PROJECT_ROOT, env: workerEnv });
    const first = worker("worker-1");
    await first.waitForLine(/"msg":"worker consuming jobs"/, 60_000);
    expect((await call("POST", `/radar/runs/${runId}/start`)).status).toBe(201);

    // Pages of 100, each search answered slowly: kill the worker once some results are written.
    const run = async () => (await call("GET", `/radar/runs/${runId}`)).body;
    const until = async (pred: (r: any) => boolean, ms: number) => {
      const deadline = Date.now() + ms;
      for (let r = await run(); Date.now() < deadline; r = await run()) {
        if (pred(r)) return r;
        await Bun.sleep(100);
      }
      throw new Error(`timed out; run is ${JSON.stringify(await run())}`);
    };
    const midway = await until((r) => r.results.created > 0, 60_000);
    expect(midway.state).toBe("running");
    process.kill(first.pid, "SIGKILL");
    await first.exited;
    const stalled = await run();
    expect(stalled.state).toBe("running");
    expect(stalled.results.created).toBeLessThan(500);

    const second = worker("worker-2");
    await second.waitForLine(/"msg":"worker consuming jobs"/, 60_000);
    const done = await until((r) => r.state === "completed", 120_000);
    expect(done.results).toEqual({ matched: 500, created: 500, updated: 0, unchanged: 0 });
    expect(done.charged_credits).toBe(500 * quote.unit_credits);
    expect(done.released_credits).toBe(done.hold_credits - done.charged_credits);

    const entities = new Set<string>();
    let pages = 0;
    for (let cursor: string | null = null; pages === 0 || cursor !== null; pages++) {
      const page: any = await call("GET", `/collections/${collectionId}/records?limit=200${cursor ? `&cursor=${cursor}` : ""}`);
      for (const r of page.body.records) entities.add(r.entity_id);
      expect(page.body.records.length + (pages * 200)).toBeLessThanOrEqual(500);
      cursor = page.body.nextCursor;
    }
    expect(entities.size).toBe(500);
    const ledger = await call("GET", `/radar/credits/history?run_id=${runId}`);
    expect(ledger.body.entries.map((e: any) => e.type)).toEqual(["capture", "hold"]);
    expect((await call("GET", "/radar/credits")).body).toMatchObject({ balance: 10_000 - done.charged_credits, held: 0 });
    const trace = (await call("GET", `/radar/runs/${runId}/trace`)).body.steps.map((s: any) => s.type);
    expect(trace).toContain("run.resumed");
    expect(trace.at(-1)).toBe("run.completed");

    await second.stop();
    rmSync(workerEnv.DATA_DIR, { recursive: true, force: true });
    await pdl.stop();
  }, 240_000);

  test("npm run worker refuses a configuration without a shared queue, saying why, and touches no data", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "worker-entry-"));
    try {
      const child = Bun.spawn([process.execPath, "workers/main.ts"], {
        cwd: PROJECT_ROOT,
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", REDIS_URL: "", MONGO_URL: "" },
        stdout: "pipe",
        stderr: "pipe",
      });
      const [code, stderr] = await Promise.all([child.exited, new Response(child.stderr).text()]);
      expect(code).toBe(1);
      expect(stderr).toContain("Cannot start a worker: this configuration has no job queue other processes share");
      expect(readdirSync(dataDir)).toEqual([]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
