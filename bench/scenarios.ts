/**
 * The benchmark scenarios, measured in this order. Add a scenario by adding
 * an object: a name and a `prepare` that returns the request to load.
 */
import type { Goal, Scenario } from "./scenario.ts";
import { bareServer } from "./targets/bare.ts";
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
import { topicConnections, topicCount, topicDataset, topicsApp, topicsLabel, type TopicsApp, type TopicsBackend } from "./targets/topics.ts";

/**
 * The topic scenarios of one backend (their names contain "topics": `BENCH_ONLY=topics`): search
 * for a common and a rare term, and the list filtered by a popular and by a mid-popular tag, on a
 * seeded dataset (bench/datasets/topics.ts). The terms and tags are known before seeding, so
 * they are in the names. On PostgreSQL the targets of the topics benchmark issue are printed
 * after the table: search p99 ≤ 25 ms and list ≥ 2,000 req/s at 100k topics.
 */
function topicScenarios(backend: TopicsBackend): Scenario[] {
  const { queries } = topicDataset(backend);
  const label = topicsLabel(backend);
  const at100k = topicCount(backend) === 100_000 ? "" : ` (this run: ${topicCount(backend)} topics)`;
  const goals: { search?: Goal; list?: Goal } =
    backend === "postgres"
      ? {
          search: { text: `search p99 ≤ 25 ms on PostgreSQL at 100k topics${at100k}`, maxP99Ms: 25 },
          list: { text: `list ≥ 2,000 req/s on PostgreSQL at 100k topics${at100k}`, minRequestsPerSecond: 2_000 },
        }
      : {};
  const request = (app: TopicsApp, path: string) => ({
    url: `${app.origin}/api/v1/workspaces/${app.slug}${path}`,
    headers: { "x-api-key": app.apiKey },
  });
  const connections = topicConnections(backend);
  const scenario = (name: string, path: string, goal: Goal | undefined): Scenario => ({
    name: `GET /api/v1/workspaces/{slug}${name} ${label}`,
    ...(goal ? { goal } : {}),
    ...(connections ? { connections } : {}),
    async prepare(ctx) {
      return request(await topicsApp(ctx, backend), path);
    },
  });
  const q = (term: string) => encodeURIComponent(term);
  return [
    scenario(`/topics/search?q=${queries.commonTerm} [common term]`, `/topics/search?q=${q(queries.commonTerm)}`, goals.search),
    scenario(`/topics/search?q=${queries.rareTerm} [rare term]`, `/topics/search?q=${q(queries.rareTerm)}`, goals.search),
    scenario(`/topics?tags=${queries.popularTag} [popular tag]`, `/topics?tags=${q(queries.popularTag)}`, goals.list),
    scenario(`/topics?tags=${queries.midTag} [mid tag]`, `/topics?tags=${q(queries.midTag)}`, goals.list),
  ];
}

/**
 * Code context on one backend (issue #5; names contain "anchored topics": `BENCH_ONLY=anchored`):
 * `POST /topics/match-files` with 50 paths of the repo, and `POST /topics/retrieve` with a
 * 10-word question and 5 paths, over topics anchored on a 50,000-file git repository
 * (targets/code-context.ts), with 8 connections on PostgreSQL (BENCH_CODE_CONNECTIONS; see there
 * why). On MongoDB (FerretDB, 200 topics, 1 connection) match-files only: retrieve took 3 s a
 * request there, slower with every request (its delivery ledger grows and FerretDB scans it), too
 * near wrk's 5 s timeout to measure. On PostgreSQL the target is printed after the table:
 * match-files p99 ≤ 30 ms at 100k topics.
 */
function codeContextScenarios(backend: TopicsBackend): Scenario[] {
  const connections = codeContextConnections(backend);
  const label = codeContextLabel(backend, connections);
  const at100k = anchoredTopicCount(backend) === 100_000 ? "" : ` (this run: ${anchoredTopicCount(backend)} topics)`;
  const goal: Goal | undefined =
    backend === "postgres" ? { text: `match-files p99 ≤ 30 ms on PostgreSQL at 100k topics${at100k}`, maxP99Ms: 30 } : undefined;
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
];
