/**
 * The benchmark scenarios, measured in this order. Add a scenario by adding
 * an object: a name and a `prepare` that returns the request to load.
 */
import type { Goal, Scenario, Target } from "./scenario.ts";
import type { Comparison } from "./report.ts";
import { CREATE_DEAL, deepOffset } from "./datasets/deals.ts";
import { bareServer } from "./targets/bare.ts";
import { OPERATOR_KEY, radarApp, type RadarBackend, unlockBodies } from "./targets/radar.ts";
import {
  embeddedApp,
  mongoApp,
  mongoRedisApp,
  postgresApp,
  postgresAppUncached,
  postgresAppUnlimited,
  postgresRedisApp,
} from "./targets/app.ts";
import {
  anchoredTopicCount,
  codeContextApp,
  codeContextConnections,
  codeContextHeaders,
  codeContextLabel,
  matchFilesBody,
  retrieveBody,
  SESSION_HEADER,
} from "./targets/code-context.ts";
import {
  AGGREGATE_BODY,
  collectionsApp,
  type CollectionsBackend,
  CREATE_BODY,
  declareAggregate,
  DECLARED_BODY,
  deepCursor,
  jsonHeaders,
  QUERY_BODY,
  recordConnections,
  recordCount,
  recordsLabel,
} from "./targets/collections.ts";
import { POCKETBASE_FILTER, pocketbaseDeals, pocketbaseLabel, pocketbaseRecordCount } from "./targets/pocketbase.ts";
import {
  topicCount,
  topicDataset,
  topicLoads,
  type TopicsApp,
  topicsApp,
  type TopicsBackend,
  topicsLabel,
  uncachedTopicsApp,
} from "./targets/topics.ts";

/**
 * The topic scenarios of one backend (their names contain "topics": `BENCH_ONLY=topics`): search
 * for a common and a rare term, and the list filtered by a popular and by a mid-popular tag, on a
 * seeded dataset (bench/datasets/topics.ts). The terms and tags are known before seeding, so
 * they are in the names. On PostgreSQL each runs twice, with 8 connections and with
 * BENCH_CONNECTIONS (32), one row each, and the targets (bench/README.md) are printed after the table:
 * search for the common word p99 ≤ 25 ms @8 and ≥ 1,500 req/s @32, for the rare word p99 ≤ 10 ms
 * @8, the popular-tag list ≥ 3,000 req/s @32 and p99 ≤ 25 ms @8. The mid tag has no target (the
 * targets state the list's for the popular tag): its rows say whether a selective tag lists as fast.
 */
function topicScenarios(backend: TopicsBackend): Scenario[] {
  const { queries } = topicDataset(backend);
  const at100k = topicCount(backend) === 100_000 ? "" : ` (this run: ${topicCount(backend)} topics)`;
  const postgres = backend === "postgres";
  /** A goal at `connections` when the row runs with the number the target states; "(this run: …)" otherwise. */
  const goal = (text: string, stated: number, connections: number, target: Omit<Goal, "text">): Goal => ({
    text: `${text} on PostgreSQL at 100k topics, ${stated} connections (issue #16)${at100k}${
      connections === stated ? "" : ` (this run: ${connections} connections)`
    }`,
    ...target,
  });
  const request = (app: TopicsApp, path: string) => ({
    url: `${app.origin}/api/v1/workspaces/${app.slug}${path}`,
    headers: { "x-api-key": app.apiKey },
  });
  const q = (term: string) => encodeURIComponent(term);
  const kinds: { name: string; path: string; goal(connections: number, latency: boolean): Goal | undefined }[] = [
    {
      name: `/topics/search?q=${queries.commonTerm} [common term]`,
      path: `/topics/search?q=${q(queries.commonTerm)}`,
      goal: (c, latency) =>
        latency
          ? goal("search, common word: p99 ≤ 25 ms", 8, c, { maxP99Ms: 25 })
          : goal("search, common word: ≥ 1,500 req/s", 32, c, { minRequestsPerSecond: 1_500 }),
    },
    {
      name: `/topics/search?q=${queries.rareTerm} [rare term]`,
      path: `/topics/search?q=${q(queries.rareTerm)}`,
      goal: (c, latency) => (latency ? goal("search, rare word: p99 ≤ 10 ms", 8, c, { maxP99Ms: 10 }) : undefined),
    },
    {
      name: `/topics?tags=${queries.popularTag} [popular tag]`,
      path: `/topics?tags=${q(queries.popularTag)}`,
      goal: (c, latency) =>
        latency
          ? goal("list by popular tag: p99 ≤ 25 ms", 8, c, { maxP99Ms: 25 })
          : goal("list by popular tag: ≥ 3,000 req/s", 32, c, { minRequestsPerSecond: 3_000 }),
    },
    { name: `/topics?tags=${queries.midTag} [mid tag]`, path: `/topics?tags=${q(queries.midTag)}`, goal: () => undefined },
  ];
  const loads = topicLoads(backend);
  const cached = kinds.flatMap((kind) =>
    loads.map((connections, i): Scenario => {
      // With two loads the first (fewest connections) carries the latency targets, the other the throughput ones.
      const target = postgres ? kind.goal(connections, loads.length > 1 ? i === 0 : connections <= 8) : undefined;
      return {
        name: `GET /api/v1/workspaces/{slug}${kind.name} ${topicsLabel(backend, connections)}`,
        ...(target ? { goal: target } : {}),
        connections,
        async prepare(ctx) {
          return request(await topicsApp(ctx, backend), kind.path);
        },
      };
    })
  );
  if (!postgres) return cached;
  // The same requests on a server keeping nothing (TOPIC_CACHE_MB=0, ADR 047): what a read costs
  // when the workspace's topics changed since it was last asked. No targets: those are above.
  const uncached = kinds.slice(0, 3).flatMap((kind) =>
    loads.map((connections): Scenario => ({
      name: `GET /api/v1/workspaces/{slug}${kind.name} [no topic cache] ${topicsLabel(backend, connections)}`,
      connections,
      async prepare(ctx) {
        return request(await uncachedTopicsApp(ctx), kind.path);
      },
    }))
  );
  return [...cached, ...uncached];
}

/**
 * Code context on one backend (names contain "anchored topics": `BENCH_ONLY=anchored`):
 * `POST /topics/match-files` with 50 paths of the repo, and `POST /topics/retrieve` with a
 * 10-word question and 5 paths, over topics anchored on a 50,000-file git repository
 * (targets/code-context.ts), with 8 connections on PostgreSQL (BENCH_CODE_CONNECTIONS; see there
 * why). On MongoDB (FerretDB, 200 topics, 1 connection) match-files only: retrieve took 3 s a
 * request there, slower with every request (its delivery ledger grows and FerretDB scans it), too
 * near wrk's 5 s timeout to measure. On PostgreSQL the targets (bench/README.md) are printed after the
 * table: match-files p99 ≤ 30 ms and retrieve p99 ≤ 100 ms at 100k topics, 8 connections.
 */
function codeContextScenarios(backend: TopicsBackend): Scenario[] {
  const connections = codeContextConnections(backend);
  const label = codeContextLabel(backend, connections);
  const at100k = anchoredTopicCount(backend) === 100_000 ? "" : ` (this run: ${anchoredTopicCount(backend)} topics)`;
  const at8 = connections === 8 ? "" : ` (this run: ${connections} connections)`;
  const goal: Goal | undefined = backend === "postgres"
    ? { text: `match-files p99 ≤ 30 ms on PostgreSQL at 100k topics, 8 connections (issue #16)${at100k}${at8}`, maxP99Ms: 30 }
    : undefined;
  const retrieveGoal: Goal | undefined = backend === "postgres"
    ? { text: `retrieve p99 ≤ 100 ms on PostgreSQL at 100k topics, 8 connections (issue #16)${at100k}${at8}`, maxP99Ms: 100 }
    : undefined;
  const path = (slug: string, action: string) => `/api/v1/workspaces/${slug}/topics/${action}`;
  const matchFiles: Scenario = {
    name: `POST /api/v1/workspaces/{slug}/topics/match-files [50 paths] ${label}`,
    ...(goal ? { goal } : {}),
    connections,
    async prepare(ctx) {
      const app = await codeContextApp(ctx, backend);
      return {
        url: `${app.origin}${path(app.slug, "match-files")}`,
        method: "POST",
        // match-files only requires the header: one session for every request.
        headers: { ...codeContextHeaders(app), [SESSION_HEADER]: "bench-match-files" },
        body: matchFilesBody(app),
      };
    },
  };
  const retrieve: Scenario = {
    name: `POST /api/v1/workspaces/{slug}/topics/retrieve [10-word question + 5 paths, new session each] ${label}`,
    ...(retrieveGoal ? { goal: retrieveGoal } : {}),
    connections,
    async prepare(ctx) {
      const app = await codeContextApp(ctx, backend);
      return {
        url: `${app.origin}${path(app.slug, "retrieve")}`,
        method: "POST",
        headers: codeContextHeaders(app),
        body: retrieveBody(app),
        // Retrieve leaves out what the session already has: a new session per request keeps
        // every request a full one (the same session would answer only `skipped_delivered`).
        uniqueHeader: SESSION_HEADER,
      };
    },
  };
  return backend === "postgres" ? [matchFiles, retrieve] : [matchFiles];
}

/**
 * The collections benchmark (names contain "records": `BENCH_ONLY=records`; PocketBase's also
 * "PocketBase"): our records API on PostgreSQL and MongoDB against PocketBase, each seeded with the
 * same deals through HTTP (targets/collections.ts, targets/pocketbase.ts), with the same wrk
 * settings: the first page of 50 newest first, a page 90% deep (ours by cursor, walked once before
 * the load; PocketBase by offset, all it offers), a filtered query, an aggregate (ours only), and a
 * create. Create comes last: what it adds during the load would change the lists measured after it.
 */
type RecordsOperation = "first" | "deep" | "filter" | "aggregate" | "create" | "aggregate@1" | "declared@1";

function ourRecordScenario(backend: CollectionsBackend, operation: RecordsOperation): Scenario {
  const label = recordsLabel(backend);
  const connections = recordConnections(backend);
  const deep = deepOffset(recordCount(backend)).toLocaleString("en-US");
  const path = "/api/v1/workspaces/{slug}/collections/{id}/records";
  const names: Record<RecordsOperation, string> = {
    first: `GET ${path}?limit=50 [first page] ${label}`,
    deep: `GET ${path}?limit=50&cursor=… [page ${deep} records deep, by cursor] ${label}`,
    filter: `POST ${path}/query [status = qualified and amount ≥ 5000, 50] ${label}`,
    aggregate: `POST ${path}/aggregate [count and sum(amount) by status] ${label}`,
    create: `POST ${path} [create] ${label}`,
    "aggregate@1": `POST ${path}/aggregate [count and sum(amount) by status, ad hoc, 1 connection] ${label}`,
    "declared@1": `POST ${path}/aggregate [count and sum(amount) by status, declared by a view, 1 connection] ${label}`,
  };
  const at100k = recordCount(backend) === 100_000 ? "" : `, this run ${recordCount(backend).toLocaleString("en-US")} records`;
  const goals: Partial<Record<RecordsOperation, Goal>> = backend === "postgres"
    ? {
      "aggregate@1": { text: `ad-hoc aggregate p50 ≤ 60 ms @1 on PostgreSQL at 100k records (issue #16)${at100k}`, maxP50Ms: 60 },
      "declared@1": { text: `declared aggregate p50 ≤ 10 ms @1 on PostgreSQL at 100k records (issue #16)${at100k}`, maxP50Ms: 10 },
    }
    : {};
  const one = operation.endsWith("@1") ? 1 : connections;
  return {
    name: names[operation],
    ...(one ? { connections: one } : {}),
    ...(goals[operation] ? { goal: goals[operation] } : {}),
    async prepare(ctx) {
      const app = await collectionsApp(ctx, backend);
      const url = `${app.origin}${app.recordsPath}`;
      switch (operation) {
        case "first":
          return { url: `${url}?limit=50`, headers: { "x-api-key": app.apiKey } };
        case "deep":
          return {
            url: `${url}?limit=50&cursor=${encodeURIComponent(await deepCursor(ctx, backend))}`,
            headers: { "x-api-key": app.apiKey },
          };
        case "filter":
          return { url: `${url}/query`, method: "POST", headers: jsonHeaders(app), body: QUERY_BODY };
        case "aggregate":
        case "aggregate@1":
          return { url: `${url}/aggregate`, method: "POST", headers: jsonHeaders(app), body: AGGREGATE_BODY };
        case "declared@1":
          await declareAggregate(ctx, backend);
          return { url: `${url}/aggregate`, method: "POST", headers: jsonHeaders(app), body: DECLARED_BODY };
        case "create":
          return { url, method: "POST", headers: jsonHeaders(app), body: CREATE_BODY };
      }
    },
  };
}

type PocketbaseOperation = "first" | "deep" | "filter" | "create";

function pocketbaseScenario(operation: PocketbaseOperation): Scenario {
  const label = pocketbaseLabel();
  const path = "/api/collections/deals/records";
  const deepPage = deepOffset(pocketbaseRecordCount()) / 50 + 1;
  const deep = deepOffset(pocketbaseRecordCount()).toLocaleString("en-US");
  const list = "perPage=50&skipTotal=1&sort=-created";
  const queries: Record<typeof operation, string> = {
    first: `${list}&page=1`,
    deep: `${list}&page=${deepPage}`,
    filter: `filter=${encodeURIComponent(POCKETBASE_FILTER)}&${list}`,
    create: "",
  };
  const names: Record<typeof operation, string> = {
    first: `GET ${path}?${queries.first} [first page] ${label}`,
    deep: `GET ${path}?${queries.deep} [page ${deep} records deep, by offset: PocketBase has no cursor] ${label}`,
    filter: `GET ${path}?filter=${POCKETBASE_FILTER}&${list} ${label}`,
    create: `POST ${path} [create] ${label}`,
  };
  return {
    name: names[operation],
    async prepare(ctx): Promise<Target> {
      const pb = await pocketbaseDeals(ctx);
      const url = `${pb.origin}${pb.recordsPath}`;
      if (operation === "create") {
        return {
          url,
          method: "POST",
          headers: { authorization: pb.token, "content-type": "application/json" },
          body: JSON.stringify(CREATE_DEAL),
        };
      }
      return { url: `${url}?${queries[operation]}`, headers: { authorization: pb.token } };
    },
  };
}

const records = {
  postgres: Object.fromEntries(
    (["first", "deep", "filter", "aggregate", "create", "aggregate@1", "declared@1"] as const).map((
      op,
    ) => [op, ourRecordScenario("postgres", op)]),
  ) as Record<RecordsOperation, Scenario>,
  mongo: Object.fromEntries(
    (["first", "deep", "filter", "aggregate", "create"] as const).map((op) => [op, ourRecordScenario("mongo", op)]),
  ) as Record<RecordsOperation, Scenario>,
  pocketbase: Object.fromEntries(
    (["first", "deep", "filter", "create"] as const).map((op) => [op, pocketbaseScenario(op)]),
  ) as Record<PocketbaseOperation, Scenario>,
};

function recordsScenarios(): Scenario[] {
  const { postgres: pg, mongo, pocketbase: pb } = records;
  return [
    pg.first,
    mongo.first,
    pb.first,
    pg.deep,
    mongo.deep,
    pb.deep,
    pg.filter,
    mongo.filter,
    pb.filter,
    pg.aggregate,
    pg["aggregate@1"],
    mongo.aggregate,
    pg.create,
    mongo.create,
    pb.create,
    // After create: the view is declared (its rollup built) only now, so the rows above are those of a collection without one.
    pg["declared@1"],
  ];
}

/** The ratios printed after the table (targets of the collections issue: printed, never asserted). */
function recordsComparisons(): Comparison[] {
  const { postgres: pg, pocketbase: pb } = records;
  const at100k = recordCount("postgres") === 100_000 ? "" : `, this run ${recordCount("postgres").toLocaleString("en-US")} records`;
  const deepFirst = (backend: CollectionsBackend, text: string, max?: number): Comparison => ({
    text: `${text}: deep/first p50`,
    numerator: records[backend].deep.name,
    denominator: records[backend].first.name,
    metric: "p50",
    ...(max === undefined ? {} : { max }),
  });
  const versus = (operation: PocketbaseOperation, what: string, min = 1): Comparison => ({
    text: `ours (postgres) / PocketBase, ${what}: req/s`,
    numerator: pg[operation].name,
    denominator: pb[operation].name,
    metric: "requestsPerSecond",
    min,
  });
  return [
    deepFirst("postgres", `ours (postgres${at100k})`, 1.5),
    deepFirst("mongo", `ours (mongo, ${recordCount("mongo").toLocaleString("en-US")} records)`, 1.5),
    {
      text: "PocketBase (for reference, offset paging): deep/first p50",
      numerator: pb.deep.name,
      denominator: pb.first.name,
      metric: "p50",
    },
    // Create back to at least 1.2× (ADR 058); every other row at least 1×.
    versus("create", "create", 1.2),
    versus("first", "first page"),
    versus("deep", "deep page"),
    versus("filter", "filtered query"),
  ];
}

export const comparisons: Comparison[] = recordsComparisons();

/**
 * Radar (names contain "radar": `BENCH_ONLY=radar`): appends on one hot credit account
 * (target on PostgreSQL ≥ 2,000/s) and contact unlocks, each of a path never unlocked before (target on
 * PostgreSQL p99 ≤ 50 ms at 32 connections). MongoDB's figures are printed, not targeted: FerretDB
 * v1 scans (see the records scenarios), so it runs with one connection and fewer people.
 */
function radarScenarios(backend: RadarBackend): Scenario[] {
  const pg = backend === "postgres";
  const label = `(radar, ${backend}${pg ? "" : ", 1 connection"})`;
  return [
    {
      name: `POST /api/v1/workspaces/{slug}/radar/credits/grant [ledger appends on one hot account] ${label}`,
      ...(pg ? { goal: { text: "≥ 2,000 debits/s on one hot account (issue #13)", minRequestsPerSecond: 2_000 } } : { connections: 1 }),
      async prepare(ctx) {
        const app = await radarApp(ctx, backend);
        return {
          url: `${app.origin}/api/v1/workspaces/${app.slug}/radar/credits/grant`,
          method: "POST",
          headers: { "x-api-key": OPERATOR_KEY, "content-type": "application/json" },
          body: JSON.stringify({ amount: 1 }),
        };
      },
    },
    {
      name:
        `POST /api/v1/workspaces/{slug}/radar/collections/{id}/contact-paths/unlock [each request a path never unlocked before] ${label}`,
      ...(pg ? { goal: { text: "unlock p99 ≤ 50 ms at 32 connections (issue #13)", maxP99Ms: 50 } } : { connections: 1 }),
      async prepare(ctx) {
        const app = await radarApp(ctx, backend);
        return {
          url: `${app.origin}/api/v1/workspaces/${app.slug}/radar/collections/${app.collectionId}/contact-paths/unlock`,
          method: "POST",
          headers: { "x-api-key": app.apiKey, "content-type": "application/json" },
          bodies: unlockBodies(app.recordIds),
        };
      },
    },
  ];
}

export const scenarios: Scenario[] = [
  {
    name: "bare Bun.serve hello-world",
    baseline: true,
    async prepare(ctx) {
      const { origin } = await bareServer(ctx);
      return { url: `${origin}/` };
    },
  },
  {
    name: "GET /api/v1/health (embedded)",
    async prepare(ctx) {
      const app = await embeddedApp(ctx);
      return { url: `${app.origin}/api/v1/health` };
    },
  },
  {
    name: "GET /api/v1/workspaces/{slug} (embedded)",
    async prepare(ctx) {
      const app = await embeddedApp(ctx);
      return { url: `${app.origin}/api/v1/workspaces/${app.slug}`, headers: { "x-api-key": app.apiKey } };
    },
  },
  {
    name: "GET /api/v1/workspaces/{slug} (postgres)",
    goal: { text: "authenticated GET of a workspace ≥ 0.45× the bare Bun.serve (issue #16)", minRatio: 0.45 },
    // The targets of bench/README.md are printed by `BENCH_ONLY=topics,anchored,records`: this one runs with each of them.
    selectedBy: ["topics", "anchored", "records"],
    async prepare(ctx) {
      const app = await postgresApp(ctx);
      return { url: `${app.origin}/api/v1/workspaces/${app.slug}`, headers: { "x-api-key": app.apiKey } };
    },
  },

  {
    name: "GET /api/v1/workspaces/{slug} (postgres, rate limiting off)",
    async prepare(ctx) {
      const app = await postgresAppUnlimited(ctx);
      return { url: `${app.origin}/api/v1/workspaces/${app.slug}`, headers: { "x-api-key": app.apiKey } };
    },
  },
  {
    name: "GET /api/v1/workspaces/{slug} (postgres, auth cache off)",
    async prepare(ctx) {
      const app = await postgresAppUncached(ctx);
      return { url: `${app.origin}/api/v1/workspaces/${app.slug}`, headers: { "x-api-key": app.apiKey } };
    },
  },
  {
    name: "GET /api/v1/workspaces/{slug} (mongo)",
    async prepare(ctx) {
      const app = await mongoApp(ctx);
      return { url: `${app.origin}/api/v1/workspaces/${app.slug}`, headers: { "x-api-key": app.apiKey } };
    },
  },
  {
    name: "GET /api/v1/workspaces/{slug} (postgres + redis)",
    async prepare(ctx) {
      const app = await postgresRedisApp(ctx);
      return { url: `${app.origin}/api/v1/workspaces/${app.slug}`, headers: { "x-api-key": app.apiKey } };
    },
  },
  {
    name: "GET /api/v1/workspaces/{slug} (mongo + redis)",
    async prepare(ctx) {
      const app = await mongoRedisApp(ctx);
      return { url: `${app.origin}/api/v1/workspaces/${app.slug}`, headers: { "x-api-key": app.apiKey } };
    },
  },
  ...topicScenarios("postgres"),
  ...topicScenarios("mongo"),
  ...codeContextScenarios("postgres"),
  ...codeContextScenarios("mongo"),
  ...recordsScenarios(),
  ...radarScenarios("postgres"),
  ...radarScenarios("mongo"),
];
