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
