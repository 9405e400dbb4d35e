/** A throwaway PostgreSQL server from the test launcher (tests/support/postgres-server.ts). */
import { readFileSync } from "node:fs";
import type { BenchContext } from "../scenario.ts";

/** `BENCH_PG_STATEMENTS=1`: the server loads pg_stat_statements, and each measurement reports its statements. */
const statementsWanted = () => process.env.BENCH_PG_STATEMENTS === "1";
let startedUrl: string | null = null;

export function postgres(ctx: BenchContext): Promise<{ url: string }> {
  return ctx.use("postgres", async () => {
    // Imported lazily: only the PostgreSQL scenarios need the launcher.
    const { startPostgres } = (await import("../../tests/support/postgres-server.ts")) as {
      startPostgres(o?: { settings?: Record<string, string> }): Promise<{ url: string; stop(): Promise<void> }>;
    };
    const server = await startPostgres(
      statementsWanted() ? { settings: { shared_preload_libraries: "pg_stat_statements", "pg_stat_statements.track": "all" } } : {},
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
 * per request and mean time, the most called first. The counts are the whole server's (the
 * scenario's server and database are the only ones busy then).
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
  return {
    reset: () =>
      run(async (sql) => {
        await sql.unsafe("create extension if not exists pg_stat_statements");
        await sql.unsafe("select pg_stat_statements_reset()");
        cpuBefore = await cpuMs(sql);
      }),
    report: (requests) =>
      run(async (sql) => {
        const cpuAfter = await cpuMs(sql);
        let ticks = 0;
        for (const [pid, t] of cpuAfter) ticks += t - (cpuBefore.get(pid) ?? 0);
        const tickMs = 1000 / 100; // USER_HZ
        const rows = await sql.unsafe(
          `select calls, total_exec_time, mean_exec_time, regexp_replace(query, '\\s+', ' ', 'g') as query
           from pg_stat_statements where query not like '%pg_stat_statements%' order by calls desc limit 40`,
        );
        const total = rows.reduce((n, r) => n + Number(r.calls), 0);
        const execMs = rows.reduce((n, r) => n + Number(r.total_exec_time), 0);
        const lines = rows.map((r) =>
          `  ${(Number(r.calls) / requests).toFixed(2).padStart(6)} × ${Number(r.mean_exec_time).toFixed(3).padStart(7)} ms  ${
            String(r.query).slice(0, 160)
          }`
        );
        return [
          `  PostgreSQL CPU: ${((ticks * tickMs) / requests).toFixed(3)} ms per request (user + system, all its processes)`,
          `  pg_stat_statements: ${(total / requests).toFixed(2)} statements per request, ${
            (execMs / requests).toFixed(2)
          } ms executing per request (calls/request × mean):`,
          ...lines,
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
