/**
 * The real server on a fresh database holding the synthetic topics dataset
 * (bench/datasets/topics.ts), seeded once per backend and shared by that backend's topic
 * scenarios.
 *
 * Started in this order: the database server (shared with the other scenarios of the backend),
 * a fresh database on it, the real server on that database (it migrates the schema) with a
 * bootstrapped workspace, then the seeding, through stores of our own opened on the same
 * database and closed once done. On PostgreSQL, `VACUUM ANALYZE` follows the bulk load, as
 * autovacuum would soon do: statistics and the visibility map of a database in steady state, and
 * the GIN indexes' pending lists merged, rather than a plan that changes halfway through a run.
 *
 * Environment:
 *   BENCH_TOPICS             topics seeded on PostgreSQL (default 100000)
 *   BENCH_TOPICS_MONGO       topics seeded on MongoDB (FerretDB on SQLite) (default 200)
 *   BENCH_TOPICS_MONGO_CONNECTIONS  wrk connections of the MongoDB topic scenarios (default 1)
 *   BENCH_SEED_CONCURRENCY   inserts in flight while seeding (default 24)
 */
import type { Stores } from "../../core/stores.ts";
import type { BenchContext } from "../scenario.ts";
import { type SeedSource, seedTopics } from "../datasets/seed-topics.ts";
import { countLabel, TopicDataset } from "../datasets/topics.ts";
import { type App, startAnotherServer, startApp } from "./app.ts";
import { mongo } from "./mongo.ts";
import { postgres, vacuumAnalyze } from "./postgres.ts";

export type TopicsBackend = "postgres" | "mongo";

export const TOPICS_SLUG = "bench-topics";

export interface TopicsApp extends App {
  backend: TopicsBackend;
  dataset: TopicDataset;
  /** The database the server uses (and the seeding wrote). */
  databaseUrl: string;
}

export function positiveInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw.replace(/_/g, ""));
  if (!Number.isInteger(value) || value < 1) throw new Error(`Invalid ${name}: expected an integer >= 1, got ${raw}`);
  return value;
}

/** Topics seeded on each backend, from the environment. */
export function topicCount(backend: TopicsBackend): number {
  return backend === "postgres" ? positiveInt("BENCH_TOPICS", 100_000) : positiveInt("BENCH_TOPICS_MONGO", 200);
}

const datasets = new Map<number, TopicDataset>();

/** The dataset of a backend (its queries are known before anything is seeded). */
export function topicDataset(backend: TopicsBackend): TopicDataset {
  const count = topicCount(backend);
  let dataset = datasets.get(count);
  if (!dataset) datasets.set(count, dataset = new TopicDataset({ count }));
  return dataset;
}

/**
 * Connections wrk keeps open for the topic scenarios of a backend; undefined: BENCH_CONNECTIONS.
 * FerretDB v1 pushes no filter but `_id` down to SQLite: every search or list reads and decodes
 * every topic of the collection, twice (about 2-3 ms per topic and request on the 2-core
 * machine), and two requests at once are slower than one after the other. With more
 * connections, requests queue past wrk's timeout and the run measures nothing.
 */
export function topicConnections(backend: TopicsBackend): number | undefined {
  return backend === "mongo" ? positiveInt("BENCH_TOPICS_MONGO_CONNECTIONS", 1) : undefined;
}

/** BENCH_CONNECTIONS, as the runner reads it: the connections of a scenario that sets none. */
export function benchConnections(): number {
  return positiveInt("BENCH_CONNECTIONS", 32);
}

/**
 * The connection counts each topic scenario of a backend runs with, one row each: on
 * PostgreSQL 8 (a p99 there is latency, not queueing on two shared cores) and BENCH_CONNECTIONS
 * (32: throughput); on MongoDB only `topicConnections` (see there).
 */
export function topicLoads(backend: TopicsBackend): number[] {
  const mongo = topicConnections(backend);
  if (mongo !== undefined) return [mongo];
  const all = benchConnections();
  return all <= 8 ? [all] : [8, all];
}

/** "(postgres, 100k topics, 8 connections)", "(mongo, 200 topics, 1 connection)": the suffix of a scenario name. */
export function topicsLabel(backend: TopicsBackend, connections: number): string {
  return `(${backend}, ${countLabel(topicCount(backend))} topics, ${connections} connection${connections === 1 ? "" : "s"})`;
}

/** The real server on a fresh database of `backend`, seeded with the topics dataset. */
export function topicsApp(ctx: BenchContext, backend: TopicsBackend): Promise<TopicsApp> {
  return ctx.use(`app:topics-${backend}`, async () => {
    const dataset = topicDataset(backend);
    const databaseUrl = backend === "postgres" ? await freshPostgres(ctx) : await freshMongo(ctx);
    const name = `server (${backend}, topics)`;
    const app = backend === "postgres"
      ? await startApp(name, databaseUrl, {}, TOPICS_SLUG)
      : await startApp(name, undefined, { MONGO_URL: databaseUrl }, TOPICS_SLUG);
    try {
      await seed(backend, databaseUrl, app.value.slug, dataset, () => dataset.describe());
      await checkCounts(backend, app.value, dataset);
    } catch (error) {
      await app.stop();
      throw error;
    }
    return { value: { ...app.value, backend, dataset, databaseUrl }, stop: app.stop };
  });
}

/**
 * A second server on the PostgreSQL topics database with `TOPIC_CACHE_MB=0`: every tag page and
 * search read from the database, as before ADR 047 and as after any topic write (a cache miss).
 */
export function uncachedTopicsApp(ctx: BenchContext): Promise<TopicsApp> {
  return ctx.use("app:topics-postgres-uncached", async () => {
    const app = await topicsApp(ctx, "postgres");
    const other = await startAnotherServer("server (postgres, topics, no topic cache)", app, app.databaseUrl, { TOPIC_CACHE_MB: "0" });
    return { value: { ...app, origin: other.value.origin }, stop: other.stop };
  });
}

export async function freshPostgres(ctx: BenchContext): Promise<string> {
  const { url } = await postgres(ctx);
  const { freshDatabase } = (await import("../../tests/support/postgres-server.ts")) as {
    freshDatabase(baseUrl: string): Promise<string>;
  };
  return freshDatabase(url);
}

export async function freshMongo(ctx: BenchContext): Promise<string> {
  const { url } = await mongo(ctx);
  const { freshMongoDatabase } = (await import("../../tests/support/mongo-server.ts")) as {
    freshMongoDatabase(baseUrl: string): string;
  };
  return freshMongoDatabase(url);
}

async function openStores(backend: TopicsBackend, url: string, pool: number): Promise<Stores> {
  if (backend === "postgres") {
    const { openPostgresStores } = await import("../../adapters/postgres/mod.ts");
    return openPostgresStores(url, { max: pool });
  }
  const { openMongoStores } = await import("../../adapters/mongo/mod.ts");
  return openMongoStores(url, { clientOptions: { maxPoolSize: pool } });
}

/**
 * Writes `dataset` into workspace `slug` through stores of our own on `databaseUrl`, then (on
 * PostgreSQL) `VACUUM ANALYZE`, then prints `describe()`.
 */
export async function seed(
  backend: TopicsBackend,
  databaseUrl: string,
  slug: string,
  dataset: SeedSource,
  describe: () => string[],
): Promise<void> {
  const concurrency = positiveInt("BENCH_SEED_CONCURRENCY", 24);
  console.log(`  seeding ${dataset.count.toLocaleString("en-US")} topics on ${backend} (${concurrency} inserts in flight)...`);
  const stores = await openStores(backend, databaseUrl, concurrency);
  try {
    const workspace = await stores.workspaces.getBySlug(slug);
    if (!workspace) throw new Error(`Cannot seed topics: workspace ${slug} not found in the database the server uses`);
    if (!stores.topics) throw new Error(`Cannot seed topics: the ${backend} stores have no topic store yet`);
    await seedTopics(stores.topics, workspace.id, dataset, { concurrency, label: backend });
  } finally {
    await stores.close();
  }
  if (backend === "postgres") await vacuumAnalyze(databaseUrl);
  for (const line of describe()) console.log(`  ${line}`);
}

/**
 * One request per query, outside the load: the server's `total` should be the dataset's count.
 * A difference is printed, not fatal: the benchmark measures speed; the contract tests own
 * correctness.
 */
async function checkCounts(backend: TopicsBackend, app: App, dataset: TopicDataset): Promise<void> {
  const stats = dataset.stats;
  if (!stats) return;
  const q = dataset.queries;
  const checks: [string, number][] = [
    [`/topics/search?q=${encodeURIComponent(q.commonTerm)}`, stats.hits.commonTerm.returned],
    [`/topics/search?q=${encodeURIComponent(q.rareTerm)}`, stats.hits.rareTerm.returned],
    [`/topics?tags=${encodeURIComponent(q.popularTag)}`, stats.hits.popularTag.returned],
    [`/topics?tags=${encodeURIComponent(q.midTag)}`, stats.hits.midTag.returned],
  ];
  for (const [path, expected] of checks) {
    const response = await fetch(`${app.origin}/api/v1/workspaces/${app.slug}${path}`, {
      headers: { "x-api-key": app.apiKey },
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}: ${text.slice(0, 500)}`);
    const total = (JSON.parse(text) as { total?: number }).total;
    const verdict = total === expected ? "as generated" : `WARNING: the dataset has ${expected}`;
    console.log(`  ${backend}: GET ${path} -> total ${total} (${verdict})`);
  }
}
