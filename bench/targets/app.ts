/**
 * The real server, on the embedded store, PostgreSQL or MongoDB, with a
 * bootstrapped workspace whose API key the scenarios send.
 */
import type { BenchContext, Resource } from "../scenario.ts";
import { bootstrapWorkspace, startAppServer } from "../../tests/support/app-server.ts";
import { mongo } from "./mongo.ts";
import { postgres } from "./postgres.ts";
import { redis } from "./redis.ts";

export const BENCH_SLUG = "bench-ws";

export interface App {
  origin: string;
  slug: string;
  apiKey: string;
}

/** Server log level during the load: request logging would measure the logger. */
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? "warn";
/** Flags for the servers' bun, to profile them: `BENCH_SERVER_FLAGS="--cpu-prof-md --cpu-prof-dir=/tmp/prof"`. */
export const SERVER_FLAGS = (process.env.BENCH_SERVER_FLAGS ?? "").split(/\s+/).filter(Boolean);

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

/** PostgreSQL with per-key rate limiting off: what counting and its headers cost. */
export function postgresAppUnlimited(ctx: BenchContext): Promise<App> {
  return ctx.use("app:postgres-unlimited", async () => {
    const { url } = await postgres(ctx);
    return startApp("server (postgres, rate limiting off)", url, { RATE_LIMIT_PER_KEY: "0" }, `${BENCH_SLUG}-unlimited`);
  });
}

/** The real server on a throwaway MongoDB-compatible server (FerretDB on SQLite). */
export function mongoApp(ctx: BenchContext): Promise<App> {
  return ctx.use("app:mongo", async () => {
    const { url } = await mongo(ctx);
    return startApp("server (mongo)", undefined, { MONGO_URL: url });
  });
}

/**
 * PostgreSQL + Redis, as several instances run: rate counting in Redis (one round trip per
 * request), the level-2 auth cache and invalidation over Redis.
 */
export function postgresRedisApp(ctx: BenchContext): Promise<App> {
  return ctx.use("app:postgres-redis", async () => {
    const [{ url }, r] = await Promise.all([postgres(ctx), redis(ctx)]);
    return startApp("server (postgres + redis)", url, { REDIS_URL: r.url }, `${BENCH_SLUG}-redis`);
  });
}

/** MongoDB + Redis. */
export function mongoRedisApp(ctx: BenchContext): Promise<App> {
  return ctx.use("app:mongo-redis", async () => {
    const [m, r] = await Promise.all([mongo(ctx), redis(ctx)]);
    return startApp("server (mongo + redis)", undefined, { MONGO_URL: m.url, REDIS_URL: r.url }, `${BENCH_SLUG}-redis`);
  });
}

/** One secret per run, shared by every server of the run (required with DATABASE_URL). */
const SECRET_KEY = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("hex");

/**
 * One key at tens of thousands of requests a second is far over any real per-key limit: a limit of
 * a billion keeps the counting (and its RateLimit-* headers) running, so its cost is part of every
 * figure, without ever refusing. The "rate limiting off" scenario passes RATE_LIMIT_PER_KEY=0.
 */
export async function startApp(
  name: string,
  databaseUrl?: string,
  extraEnv: Record<string, string> = {},
  slug = BENCH_SLUG,
): Promise<Resource<App>> {
  const server = await startServer(name, databaseUrl, extraEnv);
  try {
    const workspace = await bootstrapWorkspace(server.origin, slug);
    return { value: { origin: server.origin, slug: workspace.slug, apiKey: workspace.apiKey }, stop: server.stop };
  } catch (error) {
    await server.stop();
    throw new Error(`${(error as Error).message}\n--- ${name} output ---\n${server.child.tail()}`);
  }
}

/**
 * Another server process on `databaseUrl`, which already holds `app`'s workspace: the same
 * workspace and key (SECRET_KEY is this run's), its own process, caches and `extraEnv`.
 */
export async function startAnotherServer(
  name: string,
  app: App,
  databaseUrl: string,
  extraEnv: Record<string, string>,
): Promise<Resource<App>> {
  const server = await startServer(name, databaseUrl, extraEnv);
  return { value: { ...app, origin: server.origin }, stop: server.stop };
}

function startServer(name: string, databaseUrl: string | undefined, extraEnv: Record<string, string>) {
  return startAppServer({
    name,
    databaseUrl,
    flags: SERVER_FLAGS,
    env: { LOG_LEVEL, SECRET_KEY, RATE_LIMIT_PER_KEY: "1000000000", ...extraEnv },
  });
}
