/** A throwaway PostgreSQL server from the test launcher (tests/support/postgres-server.ts). */
import type { BenchContext } from "../scenario.ts";

export function postgres(ctx: BenchContext): Promise<{ url: string }> {
  return ctx.use("postgres", async () => {
    // Imported lazily: only the PostgreSQL scenarios need the launcher.
    const { startPostgres } = (await import("../../tests/support/postgres-server.ts")) as {
      startPostgres(): Promise<{ url: string; stop(): Promise<void> }>;
    };
    const server = await startPostgres();
    return { value: { url: server.url }, stop: () => server.stop() };
  });
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
