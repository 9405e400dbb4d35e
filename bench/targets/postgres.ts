/** A throwaway PostgreSQL server from the test launcher (tests/support/postgres-server.ts). */
import { readFileSync } from "node:fs";
import type { BenchContext } from "../scenario.ts";

/** `BENCH_PG_STATEMENTS=1`: the server loads pg_stat_statements (planning tracked too), and each measurement reports its statements. */
const statementsWanted = () => process.env.BENCH_PG_STATEMENTS === "1";
let startedUrl: string | null = null;

export function postgres(ctx: BenchContext): Promise<{ url: string }> {
  return ctx.use("postgres", async () => {
    // Imported lazily: only the PostgreSQL scenarios need the launcher.
    const { startPostgres } = (await import("../../tests/support/postgres-server.ts")) as {
      startPostgres(o?: { settings?: Record<string, string> }): Promise<{ url: string; stop(): Promise<void> }>;
    };
    const server = await startPostgres(
      statementsWanted()
        ? {
          settings: {
            shared_preload_libraries: "pg_stat_statements",
            "pg_stat_statements.track": "all",
            "pg_stat_statements.track_planning": "on",
          },
        }
        : {},
    );
    startedUrl = server.url;
    return {
      value: { url: server.url },
      stop: () => {
        startedUrl = null;
        return server.stop();
      },
    };
  });
}

/**
 * What PostgreSQL executed during one measurement (`BENCH_PG_STATEMENTS=1`, when a PostgreSQL
 * server was started): `reset` before the load, `report` after it prints each statement's calls
 * per request and mean time (and, when planned, how often and how long), the most called first,
 * the busy backends' wait events sampled through the load and the MultiXacts it created. The
 * counts are the whole server's (the scenario's server and database are the only ones busy then).
 */
export async function statementsProbe(): Promise<{ reset(): Promise<void>; report(requests: number): Promise<string> } | null> {
  if (!statementsWanted() || !startedUrl) return null;
  const { default: postgresJs } = await import("postgres");
  const url = startedUrl;
  const run = async <T>(f: (sql: ReturnType<typeof postgresJs>) => Promise<T>): Promise<T> => {
    const sql = postgresJs(url, { max: 1, onnotice: () => {} });
    try {
      return await f(sql);
    } finally {
      await sql.end({ timeout: 5 });
    }
  };
  // CPU time of every PostgreSQL process (backends, WAL writer, autovacuum…), from /proc.
  const cpuMs = (sql: ReturnType<typeof postgresJs>) =>
    sql.unsafe("select pid from pg_stat_activity").then((rows) => {
      const ticks = new Map<number, number>();
      for (const { pid } of rows) {
        try {
          const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
          ticks.set(Number(pid), Number(fields[11]) + Number(fields[12]));
        } catch { /* gone, or no /proc */ }
      }
      return ticks;
    });
  let cpuBefore = new Map<number, number>();
  // What the busy backends wait on, sampled every 20 ms through the load (one connection, whose
  // own CPU, a few hundredths of a millisecond per request, is counted with PostgreSQL's).
  const waits = new Map<string, number>();
  let samples = 0;
  let sampling: Promise<void> | null = null;
  let stopSampling = false;
  const sample = async () => {
    const sql = postgresJs(url, { max: 1, onnotice: () => {} });
    try {
      while (!stopSampling) {
        const rows = await sql.unsafe(
          `select coalesce(wait_event_type, 'CPU') || ':' || coalesce(wait_event, '-') as w, count(*)::int as n
           from pg_stat_activity where backend_type = 'client backend' and state = 'active' and pid <> pg_backend_pid() group by 1`,
        );
        samples++;
        for (const r of rows) waits.set(String(r.w), (waits.get(String(r.w)) ?? 0) + Number(r.n));
        await Bun.sleep(20);
      }
    } finally {
      await sql.end({ timeout: 5 });
    }
  };
  // MultiXacts created over the load (shared row locks held by several transactions at once: a
  // foreign key check's `for key share`). The next id is read from the control file, hence a
  // checkpoint before each reading (outside the CPU window).
  const counters = (sql: ReturnType<typeof postgresJs>) =>
    sql.unsafe(
      `select 'slru ' || name || ' blks_zeroed/hit/read' as k, blks_zeroed::text || '/' || blks_hit || '/' || blks_read as v
         from pg_stat_slru where name in ('MultiXactOffset', 'MultiXactMember')
       union all select 'next multixact', (pg_control_checkpoint()).next_multixact_id::text`,
    ).then((rows) => rows.map((r) => `${r.k}: ${r.v}`));
  let countersBefore: string[] = [];
  return {
    reset: () =>
      run(async (sql) => {
        await sql.unsafe("create extension if not exists pg_stat_statements");
        await sql.unsafe("select pg_stat_statements_reset()");
        await sql.unsafe("checkpoint");
        countersBefore = await counters(sql);
        cpuBefore = await cpuMs(sql);
        waits.clear();
        samples = 0;
        stopSampling = false;
        sampling = sample();
      }),
    report: (requests) =>
      run(async (sql) => {
        stopSampling = true;
        await sampling;
        const cpuAfter = await cpuMs(sql);
        await sql.unsafe("checkpoint");
        const countersAfter = await counters(sql);
        let ticks = 0;
        for (const [pid, t] of cpuAfter) ticks += t - (cpuBefore.get(pid) ?? 0);
        const tickMs = 1000 / 100; // USER_HZ
        const rows = await sql.unsafe(
          `select calls, plans, mean_plan_time, total_exec_time, mean_exec_time, regexp_replace(query, '\\s+', ' ', 'g') as query
           from pg_stat_statements where query not like '%pg_stat_statements%' order by calls desc limit 40`,
        );
        const total = rows.reduce((n, r) => n + Number(r.calls), 0);
        const execMs = rows.reduce((n, r) => n + Number(r.total_exec_time), 0);
        const lines = rows.map((r) =>
          `  ${(Number(r.calls) / requests).toFixed(2).padStart(6)} × ${Number(r.mean_exec_time).toFixed(3).padStart(7)} ms${
            Number(r.plans) > 0
              ? ` (planned ${(Number(r.plans) / Number(r.calls)).toFixed(2)}×, ${Number(r.mean_plan_time).toFixed(3)} ms)`
              : ""
          }  ${String(r.query).slice(0, 140)}`
        );
        return [
          `  PostgreSQL CPU: ${((ticks * tickMs) / requests).toFixed(3)} ms per request (user + system, all its processes)`,
          `  pg_stat_statements: ${(total / requests).toFixed(2)} statements per request, ${
            (execMs / requests).toFixed(2)
          } ms executing per request (calls/request × mean):`,
          ...lines,
          `  active backends by wait event, mean of ${samples} samples:`,
          ...[...waits].sort((a, b) => b[1] - a[1]).map(([w, n]) => `  ${(n / Math.max(1, samples)).toFixed(2).padStart(6)}  ${w}`),
          `  counters before → after:`,
          ...countersBefore.map((b, i) => `    ${b}  →  ${countersAfter[i]?.split(": ")[1] ?? "?"}`),
        ].join("\n");
      }),
  };
}

/** `VACUUM ANALYZE` after a bulk load: statistics and the visibility map of a database in steady state, as autovacuum would soon leave them. */
export async function vacuumAnalyze(databaseUrl: string): Promise<void> {
  const started = performance.now();
  const { default: postgresJs } = await import("postgres");
  const sql = postgresJs(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe("vacuum analyze");
  } finally {
    await sql.end({ timeout: 5 });
  }
  console.log(`  postgres: vacuum analyze in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
