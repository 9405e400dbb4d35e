/**
 * The benchmark: every scenario of `scenarios.ts` loaded by wrk with the
 * same settings, after a warm-up, then one Markdown table.
 *
 * Environment:
 *   BENCH_DURATION     seconds measured per scenario (default 10)
 *   BENCH_WARMUP       seconds of discarded load before each measurement (default 3, 0 = none)
 *   BENCH_THREADS      wrk threads (default 1: on a 2-core machine wrk competes with the server)
 *   BENCH_CONNECTIONS  open connections (default 32)
 *   BENCH_TIMEOUT      seconds after which wrk counts a request as timed out (default 5)
 *   BENCH_ONLY         only scenarios whose name contains this text (case-insensitive), or one
 *                      of several separated by commas; `a+b`: names containing both; or that a
 *                      scenario lists in `selectedBy`; the baseline always runs
 *   BENCH_JSON         also write the results as JSON to this file
 *   BENCH_LOG_LEVEL    LOG_LEVEL of the real server during the load (default warn)
 *   BENCH_PG_STATEMENTS 1: PostgreSQL loads pg_stat_statements, and each measurement after it
 *                      started prints its statements per request (targets/postgres.ts) and the
 *                      API server's CPU per request (targets/server-cpu.ts)
 *   BENCH_TOPICS, BENCH_TOPICS_MONGO, BENCH_TOPICS_MONGO_CONNECTIONS, BENCH_SEED_CONCURRENCY:
 *                      the topic scenarios' dataset and load (targets/topics.ts)
 *   BENCH_ANCHORED_TOPICS, BENCH_ANCHORED_TOPICS_MONGO, BENCH_REPO_FILES, BENCH_CODE_CONNECTIONS:
 *                      the code-context scenarios' (match-files, retrieve) dataset and load
 *                      (targets/code-context.ts)
 *   BENCH_RECORDS, BENCH_RECORDS_MONGO, BENCH_RECORDS_MONGO_CONNECTIONS, BENCH_RECORDS_SEED_CONCURRENCY:
 *                      the collections/records scenarios and PocketBase (targets/collections.ts)
 *   BENCH_POCKETBASE_BIN, BENCH_POCKETBASE_VERSION, BENCH_POCKETBASE_LOGS: PocketBase
 *                      (targets/pocketbase.ts)
 *
 * Scenarios with a `goal` (a stated performance target) are listed after the table as MET or MISSED,
 * then the ratios between scenarios of `comparisons` (scenarios.ts), then how long seeding
 * records through HTTP took (summary.ts).
 *
 * Any scenario that cannot start, answers a non-2xx status, or has wrk errors
 * (status >= 400, timeouts, socket errors) fails the run with exit code 1:
 * a benchmark of error responses measures nothing.
 */
import os from "node:os";
import { comparisons, scenarios } from "./scenarios.ts";
import { oneShots } from "./record-transfer.ts";
import { ResourcePool, type Target } from "./scenario.ts";
import { ensureWrk, runWrk, type WrkResult } from "./wrk.ts";
import { comparisonsReport, goalsReport, markdownTable, type Row } from "./report.ts";
import { recordedSeedings, seedingReport } from "./summary.ts";
import { statementsProbe } from "./targets/postgres.ts";
import { serverCpuProbe } from "./targets/server-cpu.ts";
import { stopAllAppServers } from "../tests/support/app-server.ts";
import { isShuttingDown, refuseNewChildren, stopAllChildren } from "../tests/support/child-process.ts";

interface Settings {
  durationSeconds: number;
  warmupSeconds: number;
  threads: number;
  connections: number;
  timeoutSeconds: number;
  only: string | undefined;
  jsonPath: string | undefined;
}

function readSettings(env = process.env): Settings {
  return {
    durationSeconds: seconds("BENCH_DURATION", env.BENCH_DURATION, 10, 1),
    warmupSeconds: seconds("BENCH_WARMUP", env.BENCH_WARMUP, 3, 0),
    threads: integer("BENCH_THREADS", env.BENCH_THREADS, 1, 1),
    connections: integer("BENCH_CONNECTIONS", env.BENCH_CONNECTIONS, 32, 1),
    timeoutSeconds: seconds("BENCH_TIMEOUT", env.BENCH_TIMEOUT, 5, 1),
    only: env.BENCH_ONLY || undefined,
    jsonPath: env.BENCH_JSON || undefined,
  };
}

function seconds(name: string, raw: string | undefined, fallback: number, min: number): number {
  return integer(name, raw?.replace(/s$/, ""), fallback, min);
}

function integer(name: string, raw: string | undefined, fallback: number, min: number): number {
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`Invalid ${name}: expected an integer >= ${min}, got ${raw}`);
  return value;
}

/** One request outside the load: the target must answer a 2xx status. */
async function checkTarget(target: Target, when: string): Promise<void> {
  const method = target.method ?? "GET";
  const headers = { ...target.headers };
  if (target.uniqueHeader) headers[target.uniqueHeader] = `check-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  const response = await fetch(target.url, {
    method,
    headers,
    body: target.body ?? target.bodies?.at(-1),
    signal: AbortSignal.timeout(10_000),
  });
  const body = await response.text();
  if (response.status < 200 || response.status > 299) {
    throw new Error(`${when}: ${method} ${target.url} answered ${response.status}: ${body.slice(0, 500)}`);
  }
}

function describeErrors(result: WrkResult): string {
  const kinds = Object.entries(result.errors)
    .filter(([, count]) => count > 0)
    .map(([kind, count]) => `${kind === "status" ? "status >= 400" : kind} ${count}`);
  return `${result.totalErrors} errors in ${result.requests} requests (${kinds.join(", ")})`;
}

async function main(): Promise<number> {
  const settings = readSettings();
  await ensureWrk();
  const wanted = (settings.only ?? "")
    .split(",")
    .map((text) => text.trim().toLowerCase())
    .filter((text) => text !== "");
  // `a+b`: names containing both (scenario names hold commas, so they cannot be matched whole).
  const matches = (name: string, alternative: string) => alternative.split("+").every((text) => name.includes(text.trim()));
  const selected = scenarios.filter(
    (scenario) =>
      scenario.baseline || wanted.length === 0 ||
      wanted.some((text) => matches(scenario.name.toLowerCase(), text) || (scenario.selectedBy ?? []).includes(text)),
  );
  console.log(
    `Benchmark: ${selected.length} scenarios, wrk -t${settings.threads} -c${settings.connections} ` +
      `-d${settings.durationSeconds}s after ${settings.warmupSeconds}s warm-up; ` +
      `bun ${Bun.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? "unknown"})\n`,
  );

  // Measurements of one timed operation (a whole import, say), selected by the same names: after the load.
  const shots = oneShots.filter((shot) => wanted.length === 0 || wanted.some((text) => matches(shot.name.toLowerCase(), text)));
  const shotReports: string[] = [];
  const pool = new ResourcePool();
  const rows: Row[] = [];
  const shutdown = async (signal: string) => {
    if (isShuttingDown()) return;
    refuseNewChildren();
    console.error(`\n${signal}: stopping every process the benchmark started...`);
    await stopAllAppServers();
    await stopAllChildren();
    await pool.close();
    process.exit(130);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));

  try {
    for (const scenario of selected) {
      if (isShuttingDown()) break;
      const row: Row = { name: scenario.name, baseline: scenario.baseline ?? false, goal: scenario.goal };
      rows.push(row);
      console.log(`▶ ${scenario.name}`);
      try {
        const target = await scenario.prepare(pool);
        await checkTarget(target, "Before the load");
        const connections = Math.min(settings.connections, scenario.connections ?? settings.connections);
        const load = {
          url: target.url,
          method: target.method,
          headers: target.headers,
          body: target.body,
          uniqueHeader: target.uniqueHeader,
          bodies: target.bodies,
          threads: Math.min(settings.threads, connections),
          connections,
          timeoutSeconds: settings.timeoutSeconds,
        };
        const warm = settings.warmupSeconds > 0 ? await runWrk({ ...load, durationSeconds: settings.warmupSeconds }) : null;
        // Bodies: the measurement starts after the last one the warm-up sent.
        const sent = warm?.requests ?? 0;
        const bodies = load.bodies && [...load.bodies.slice(sent % load.bodies.length), ...load.bodies.slice(0, sent % load.bodies.length)];
        const statements = await statementsProbe();
        await statements?.reset();
        const serverCpu = serverCpuProbe();
        const durationSeconds = bodiesLast(settings.durationSeconds, bodies?.length ?? 0, warm, settings.warmupSeconds, sent);
        if (durationSeconds < settings.durationSeconds) {
          console.log(`  measured for ${durationSeconds} s: as long as its bodies last at the warm-up's rate`);
        }
        const result = await runWrk({ ...load, bodies, durationSeconds });
        if (serverCpu && result.requests > 0) console.log(serverCpu.report(result.requests));
        if (statements && result.requests > 0) console.log(await statements.report(result.requests));
        if (bodies && sent + result.requests > bodies.length) {
          console.log(`  WARNING: ${sent + result.requests - bodies.length} of the requests repeated a body (${bodies.length} bodies)`);
        }
        row.result = result;
        if (result.totalErrors > 0) throw new Error(`Under load: ${describeErrors(result)}`);
        if (result.requests === 0) throw new Error("Under load: wrk completed no request");
        await checkTarget(target, "After the load");
        console.log(
          `  ${Math.round(result.requestsPerSecond)} req/s, p50 ${result.p50Ms.toFixed(2)} ms, p99 ${result.p99Ms.toFixed(2)} ms`,
        );
      } catch (error) {
        row.failure = (error as Error).message;
        console.error(`  FAILED: ${row.failure}`);
      }
    }
    for (const shot of shots) {
      if (isShuttingDown()) break;
      console.log(`▶ ${shot.name}`);
      try {
        shotReports.push(`${shot.name}\n\n${await shot.run(pool)}`);
      } catch (error) {
        rows.push({ name: shot.name, baseline: false, failure: (error as Error).message });
        console.error(`  FAILED: ${(error as Error).message}`);
      }
    }
  } finally {
    const stopFailures = await pool.close();
    await stopAllChildren();
    for (const failure of stopFailures) console.error(failure.message);
  }

  console.log(`\n${markdownTable(rows)}\n`);
  for (const report of shotReports) console.log(`${report}\n`);
  const goals = goalsReport(rows);
  if (goals) console.log(`${goals}\n`);
  const compared = comparisonsReport(rows, comparisons);
  if (compared) console.log(`${compared}\n`);
  const seeded = seedingReport();
  if (seeded) console.log(`${seeded}\n`);
  if (settings.jsonPath) {
    await Bun.write(settings.jsonPath, JSON.stringify({ settings, bun: Bun.version, rows, seedings: recordedSeedings() }, null, 2));
    console.log(`Results written to ${settings.jsonPath}`);
  }
  const failed = rows.filter((row) => row.failure);
  if (failed.length > 0) {
    console.error(`Benchmark FAILED: ${failed.length} of ${rows.length} scenarios have no valid measurement:`);
    // The full message (with the server output) was printed when the scenario failed.
    for (const row of failed) console.error(`- ${row.name}: ${row.failure?.split("\n")[0]}`);
    return 1;
  }
  return 0;
}

try {
  process.exitCode = await main();
} catch (error) {
  console.error(`Benchmark FAILED: ${(error as Error).message}`);
  await stopAllChildren();
  process.exitCode = 1;
}

/**
 * How long a scenario with bodies is measured: its duration, or less when the warm-up's rate (with
 * a fifth to spare) would send every body before the end: a repeat is not the request the scenario
 * names (an unlock of a path unlocked before is cheap), so the run stops before repeats begin.
 * At least 2 s.
 */
function bodiesLast(duration: number, bodies: number, warm: { requests: number } | null, warmup: number, sent: number): number {
  if (bodies === 0 || !warm || warm.requests === 0) return duration;
  const rate = warm.requests / warmup;
  return Math.min(duration, Math.max(2, Math.floor((bodies - sent) / (rate * 1.2))));
}
