/**
 * Our Collections/records API on a fresh database, with one "Deals" pipeline collection seeded with
 * N records of bench/datasets/deals.ts through HTTP, once per backend and shared by that backend's
 * records scenarios.
 *
 * Started in this order: the database server (shared with the other scenarios of the backend), a
 * fresh database on it, the real server on that database with a bootstrapped workspace
 * (`bench-records`), `POST /collections`, then one `POST /collections/{id}/records` per record, 32
 * in flight (BENCH_RECORDS_SEED_CONCURRENCY), timed: the "create N records" figure printed after
 * the table. On PostgreSQL `VACUUM ANALYZE` follows, as for the topics (targets/topics.ts). Then an
 * aggregate by status, outside the load, is compared with the dataset (a difference is a WARNING).
 *
 * Environment:
 *   BENCH_RECORDS                     records seeded on PostgreSQL and in PocketBase (default 100000)
 *   BENCH_RECORDS_MONGO               records seeded on MongoDB (FerretDB on SQLite) (default 2000)
 *   BENCH_RECORDS_MONGO_CONNECTIONS   wrk connections of the MongoDB records scenarios (default 1)
 *   BENCH_RECORDS_SEED_CONCURRENCY    POSTs in flight while seeding (default 32)
 */
import type { BenchContext } from "../scenario.ts";
import { CREATE_DEAL, type Deal, dealAt, dealStats, deepOffset, FILTER, STAGES } from "../datasets/deals.ts";
import { seedOverHttp } from "../datasets/seed-http.ts";
import { countLabel } from "../datasets/topics.ts";
import { type App, startApp } from "./app.ts";
import { freshMongo, freshPostgres, positiveInt } from "./topics.ts";
import { vacuumAnalyze } from "./postgres.ts";

export type CollectionsBackend = "postgres" | "mongo";

export const RECORDS_SLUG = "bench-records";

/** Records seeded on each backend, from the environment. */
export function recordCount(backend: CollectionsBackend): number {
  return backend === "postgres" ? positiveInt("BENCH_RECORDS", 100_000) : positiveInt("BENCH_RECORDS_MONGO", 2_000);
}

/**
 * Connections wrk keeps open for the records scenarios of a backend; undefined: BENCH_CONNECTIONS.
 * FerretDB v1 pushes no filter but `_id` down to SQLite (see targets/topics.ts): each list reads
 * the whole collection, and requests in parallel only queue.
 */
export function recordConnections(backend: CollectionsBackend): number | undefined {
  return backend === "mongo" ? positiveInt("BENCH_RECORDS_MONGO_CONNECTIONS", 1) : undefined;
}

/** "(postgres, 100k records)", "(mongo, 2k records, 1 connection)": the suffix of a scenario name. */
export function recordsLabel(backend: CollectionsBackend): string {
  const c = recordConnections(backend);
  const connections = c === undefined ? "" : `, ${c} connection${c === 1 ? "" : "s"}`;
  return `(${backend}, ${countLabel(recordCount(backend))} records${connections})`;
}

/** The collection, as `POST /collections` takes it. */
export const COLLECTION_BODY = {
  name: "Deals",
  archetype: "pipeline",
  record_schema: {
    fields: {
      company: { type: "string", required: true, max_length: 200 },
      amount: { type: "number", min: 0 },
      owner: { type: "string" },
      close_date: { type: "date" },
    },
    stages: [...STAGES],
  },
};

/** A record of the dataset as `POST /collections/{id}/records` takes it. */
export function recordBody(deal: Deal): string {
  const { status, ...fields } = deal;
  return JSON.stringify({ fields, status });
}

/** The body of every request of the create scenario. */
export const CREATE_BODY = recordBody(CREATE_DEAL);

/** The filtered query: status = qualified and fields.amount ≥ 5,000, first 50. */
export const QUERY_BODY = JSON.stringify({
  filter: {
    and: [
      { field: "status", op: "eq", value: FILTER.status },
      { field: "fields.amount", op: "gte", value: FILTER.minAmount },
    ],
  },
  limit: 50,
});

/** Count and sum of the amounts by status. */
export const AGGREGATE_SPEC = { group_by: ["status"], metrics: [{ fn: "count" }, { fn: "sum", field: "fields.amount" }] };
export const AGGREGATE_BODY = JSON.stringify(AGGREGATE_SPEC);

/** The view that declares the same aggregate (ADR 039), and the request naming it. */
export const DECLARED_VIEW = {
  name: "Pipeline",
  kind: "board",
  group_by: "status",
  aggregates: [{ name: "by_status", ...AGGREGATE_SPEC }],
};
export const DECLARED_BODY = JSON.stringify({ view: DECLARED_VIEW.name, aggregate: "by_status" });

/**
 * Declares `DECLARED_VIEW` on the seeded collection (once per backend; timed: the rollup is built
 * from every record in the request's transaction), then checks that the declared aggregate answers
 * what the ad-hoc scan answers. Declared only now, after the ad-hoc and create scenarios, so that
 * those measure the collection without a rollup, as before.
 */
export function declareAggregate(ctx: BenchContext, backend: CollectionsBackend): Promise<CollectionsApp> {
  return ctx.use(`declared:records-${backend}`, async () => {
    const app = await collectionsApp(ctx, backend);
    const base = app.recordsPath.replace(/\/records$/, "");
    const started = performance.now();
    await api(app, "PATCH", base, JSON.stringify({ views: [DECLARED_VIEW] }));
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const declared = await api<{ groups: unknown[]; source: string }>(app, "POST", `${app.recordsPath}/aggregate`, DECLARED_BODY);
    const scanned = await api<{ groups: unknown[] }>(
      app,
      "POST",
      `${app.recordsPath}/aggregate`,
      JSON.stringify({ ...AGGREGATE_SPEC, filter: { field: "status", op: "exists", value: true } }),
    );
    const same = JSON.stringify(declared.groups) === JSON.stringify(scanned.groups);
    console.log(
      `  ours (${backend}): view declaring count and sum(amount) by status set in ${seconds} s (rollup built); ` +
        `served from ${declared.source}, ${same ? "the same groups as the scan" : "WARNING: groups differ from the scan"}`,
    );
    return { value: app, stop: async () => {} };
  });
}

export interface CollectionsApp extends App {
  backend: CollectionsBackend;
  count: number;
  collectionId: string;
  /** `/api/v1/workspaces/{slug}/collections/{id}/records` */
  recordsPath: string;
  databaseUrl: string;
}

export function jsonHeaders(app: App): Record<string, string> {
  return { "x-api-key": app.apiKey, "content-type": "application/json" };
}

/** One JSON request to our server; the parsed body of a 2xx answer, else an error with the request and the answer. */
async function api<T>(app: App, method: string, path: string, body?: string): Promise<T> {
  const response = await fetch(`${app.origin}${path}`, {
    method,
    headers: body === undefined ? { "x-api-key": app.apiKey } : jsonHeaders(app),
    body,
    signal: AbortSignal.timeout(120_000),
  });
  const text = await response.text();
  if (response.status < 200 || response.status > 299) {
    throw new Error(
      `${method} ${path}${body === undefined ? "" : ` ${body.slice(0, 300)}`} answered ${response.status}: ${text.slice(0, 800)}`,
    );
  }
  return JSON.parse(text) as T;
}

/** The real server on a fresh database of `backend`, a "Deals" collection seeded through HTTP. */
export function collectionsApp(ctx: BenchContext, backend: CollectionsBackend): Promise<CollectionsApp> {
  return ctx.use(`app:records-${backend}`, async () => {
    const count = recordCount(backend);
    const databaseUrl = backend === "postgres" ? await freshPostgres(ctx) : await freshMongo(ctx);
    const name = `server (${backend}, records)`;
    const app = backend === "postgres"
      ? await startApp(name, databaseUrl, {}, RECORDS_SLUG)
      : await startApp(name, undefined, { MONGO_URL: databaseUrl }, RECORDS_SLUG);
    try {
      const base = `/api/v1/workspaces/${app.value.slug}`;
      const collection = await api<{ id?: string }>(app.value, "POST", `${base}/collections`, JSON.stringify(COLLECTION_BODY));
      if (typeof collection.id !== "string") {
        throw new Error(`POST ${base}/collections answered no id: ${JSON.stringify(collection).slice(0, 500)}`);
      }
      const recordsPath = `${base}/collections/${collection.id}/records`;
      const headers = jsonHeaders(app.value);
      await seedOverHttp({
        label: `ours (${backend})`,
        count,
        request: (i) => ({ url: `${app.value.origin}${recordsPath}`, init: { method: "POST", headers, body: recordBody(dealAt(i)) } }),
      });
      if (backend === "postgres") await vacuumAnalyze(databaseUrl);
      const value: CollectionsApp = { ...app.value, backend, count, collectionId: collection.id, recordsPath, databaseUrl };
      await checkCounts(value);
      return { value, stop: app.stop };
    } catch (error) {
      await app.stop();
      throw error;
    }
  });
}

interface AggregateGroup {
  key?: Record<string, unknown>;
  [name: string]: unknown;
}

/**
 * One aggregate by status outside the load: its counts should be the dataset's. Printed, not
 * fatal (the contract tests own correctness), and lenient about the group's shape: the status is
 * the group's only string value, the count its `count` (or the first integer).
 */
async function checkCounts(app: CollectionsApp): Promise<void> {
  const expected = dealStats(app.count).byStatus;
  let groups: AggregateGroup[];
  try {
    groups = (await api<{ groups: AggregateGroup[] }>(app, "POST", `${app.recordsPath}/aggregate`, AGGREGATE_BODY)).groups;
  } catch (error) {
    console.log(`  ours (${app.backend}): WARNING: cannot check the counts: ${(error as Error).message}`);
    return;
  }
  const found: Record<string, number> = {};
  for (const group of groups) {
    const values = flatten(group);
    const status = values.find(([, v]) => typeof v === "string" && (STAGES as readonly string[]).includes(v))?.[1] as string | undefined;
    const count = (values.find(([k]) => /(^|\.)count$/.test(k))?.[1] ?? values.find(([, v]) => Number.isInteger(v))?.[1]) as
      | number
      | undefined;
    if (status !== undefined && typeof count === "number") found[status] = count;
  }
  const mismatches = STAGES.filter((stage) => (found[stage] ?? 0) !== expected[stage]);
  const summary = STAGES.map((stage) => `${stage} ${found[stage] ?? 0}`).join(", ");
  const verdict = mismatches.length === 0
    ? "as generated"
    : `WARNING: the dataset has ${STAGES.map((s) => `${s} ${expected[s]}`).join(", ")}`;
  console.log(`  ours (${app.backend}): aggregate count by status -> ${summary} (${verdict})`);
}

/** Every leaf of a JSON value with its dotted path (array items by index). */
function flatten(value: unknown, prefix = ""): [string, unknown][] {
  if (value === null || typeof value !== "object") return [[prefix, value]];
  return Object.entries(value as Record<string, unknown>).flatMap(([key, inner]) => flatten(inner, prefix ? `${prefix}.${key}` : key));
}

/**
 * The `nextCursor` after the first `deepOffset(count)` records (90,000 of 100,000), walked once
 * per backend with `limit=200` (then one smaller page for the rest, a multiple of 50), and shared
 * by the deep-page scenario.
 */
export function deepCursor(ctx: BenchContext, backend: CollectionsBackend): Promise<string> {
  return ctx.use(`cursor:records-${backend}`, async () => {
    const app = await collectionsApp(ctx, backend);
    const target = deepOffset(app.count);
    if (target === 0) throw new Error(`${app.count} records are too few for a deep page (at least 56: 90% of them, whole pages of 50)`);
    const started = performance.now();
    let cursor: string | null = null;
    let walked = 0;
    let requests = 0;
    while (walked < target) {
      const limit = Math.min(200, target - walked);
      const query: string = `limit=${limit}${cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`}`;
      const page: { records: unknown[]; nextCursor: string | null } = await api(app, "GET", `${app.recordsPath}?${query}`);
      requests++;
      walked += page.records.length;
      if (page.records.length !== limit && walked < target) {
        throw new Error(
          `Walking the cursor chain: GET ${app.recordsPath}?${query} answered ${page.records.length} records, not ${limit}, after ${walked}`,
        );
      }
      cursor = page.nextCursor;
      if (cursor === null) throw new Error(`Walking the cursor chain: no nextCursor after ${walked} of ${app.count} records`);
    }
    console.log(
      `  ours (${backend}): cursor after ${walked.toLocaleString("en-US")} records in ${requests} requests ` +
        `(${((performance.now() - started) / 1000).toFixed(1)} s)`,
    );
    return { value: cursor as string, stop: async () => {} };
  });
}
