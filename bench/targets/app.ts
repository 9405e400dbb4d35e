/**
 * The real server, on the embedded store or on PostgreSQL, with a
 * bootstrapped workspace whose API key the scenarios send.
 */
import type { BenchContext } from "../scenario.ts";
import { bootstrapWorkspace, startAppServer } from "../lib/app-server.ts";
import { postgres } from "./postgres.ts";

export const BENCH_SLUG = "bench-ws";

export interface App {
  origin: string;
  slug: string;
  apiKey: string;
}

/** Server log level during the load: request logging would measure the logger. */
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? "warn";

/** The real server on a fresh temporary DATA_DIR (embedded PGlite store). */
export function embeddedApp(ctx: BenchContext): Promise<App> {
  return ctx.use("app:embedded", () => startApp("server (embedded)"));
}

/** The real server on a throwaway PostgreSQL server. */
export function postgresApp(ctx: BenchContext): Promise<App> {
  return ctx.use("app:postgres", async () => {
    const { url } = await postgres(ctx);
    return startApp("server (postgres)", url);
  });
}

async function startApp(name: string, databaseUrl?: string) {
  const server = await startAppServer({ name, databaseUrl, env: { LOG_LEVEL } });
  try {
    const workspace = await bootstrapWorkspace(server.origin, BENCH_SLUG);
    return { value: { origin: server.origin, slug: workspace.slug, apiKey: workspace.apiKey }, stop: server.stop };
  } catch (error) {
    await server.stop();
    throw new Error(`${(error as Error).message}\n--- ${name} output ---\n${server.child.tail()}`);
  }
}
