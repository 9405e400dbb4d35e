/** A throwaway MongoDB-compatible server (FerretDB) from the test launcher (tests/support/mongo-server.ts). */
import type { BenchContext } from "../scenario.ts";

export function mongo(ctx: BenchContext): Promise<{ url: string }> {
  return ctx.use("mongo", async () => {
    // Imported lazily: only the MongoDB scenarios need the launcher (and, on a first run, Go to build FerretDB).
    const { startMongo } = (await import("../../tests/support/mongo-server.ts")) as {
      startMongo(): Promise<{ url: string; stop(): Promise<void> }>;
    };
    const server = await startMongo();
    return { value: { url: server.url }, stop: () => server.stop() };
  });
}
