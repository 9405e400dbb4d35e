/**
 * The real server, on the embedded store or on PostgreSQL, with a
 * bootstrapped workspace whose API key the scenarios send.
 */
import type { BenchContext } from "../scenario.ts";
import { bootstrapWorkspace, startAppServer } from "../../tests/support/app-server.ts";
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

/** The same, with the in-process authentication cache off: every request looks its key up in the store. */
export function postgresAppUncached(ctx: BenchContext): Promise<App> {
  return ctx.use("app:postgres-uncached", async () => {
    const { url } = await postgres(ctx);
    return startApp("server (postgres, no auth cache)", url, { AUTH_CACHE_TTL_MS: "0" }, `${BENCH_SLUG}-nocache`);
  });
}

/** One secret per run, shared by every server of the run (required with DATABASE_URL). */
const SECRET_KEY = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("hex");

/**
 * One key at tens of thousands of requests a second is far over any real per-key limit:
 * RATE_LIMIT_PER_KEY=0 makes the limit unreachable while the counting itself still runs, so its
 * cost is part of every figure.
 */
async function startApp(name: string, databaseUrl?: string, extraEnv: Record<string, string> = {}, slug = BENCH_SLUG) {
  const server = await startAppServer({ name, databaseUrl, env: { LOG_LEVEL, SECRET_KEY, RATE_LIMIT_PER_KEY: "0", ...extraEnv } });
  try {
    const workspace = await bootstrapWorkspace(server.origin, slug);
    return { value: { origin: server.origin, slug: workspace.slug, apiKey: workspace.apiKey }, stop: server.stop };
  } catch (error) {
    await server.stop();
    throw new Error(`${(error as Error).message}\n--- ${name} output ---\n${server.child.tail()}`);
  }
}
