/**
 * The real server on a fresh database holding the synthetic topics (bench/datasets/topics.ts),
 * each linked to a synthetic 50,000-file git repository (bench/datasets/repo-files.ts) with 1 to
 * 3 anchors (bench/datasets/anchors.ts): what `POST /topics/match-files` and `POST
 * /topics/retrieve` are measured on. Started once per backend and shared by its scenarios.
 *
 * In this order: the repo's paths are generated and committed to a real git repository in a temp
 * dir (`benchctx-repo-*`, one `git fast-import`); a fresh database on the backend's server; the
 * real server on it with `CODE_HOST_LOCAL_ROOTS` naming the repo's directory (a local path as
 * `clone_url`, as the tests do) and its own `GIT_CACHE_DIR`, and a bootstrapped workspace
 * (`bench-code`); the repo linked with `POST /repos` and its file index awaited
 * (`GET /repos/{id}/index`: the server's background job runs `git ls-tree` and stores the 50,000
 * paths); the topics seeded through the store port
 * with `repo_id` and anchors (as targets/topics.ts seeds, then `VACUUM ANALYZE` on PostgreSQL);
 * then one match-files and one retrieve request, outside the load, whose counts are printed and
 * compared with what the dataset says they should be.
 *
 * A separate workspace on a separate database from the search/list scenarios' (targets/topics.ts):
 * their dataset, and so their figures, are left exactly as they were.
 *
 * On MongoDB (FerretDB v1 on SQLite, which scans the whole collection for any filter), 200 topics
 * and 1 connection by default, as for the search/list scenarios: the anchors of 200 topics hit a
 * handful of the 50 paths, so its match-files row measures FerretDB's scans, not the feature at
 * scale (scenarios.ts loads no retrieve there: see bench/README.md).
 *
 * Environment:
 *   BENCH_ANCHORED_TOPICS  topics seeded on PostgreSQL (default 100000)
 *   BENCH_ANCHORED_TOPICS_MONGO  topics seeded on MongoDB (FerretDB) (default 200)
 *   BENCH_REPO_FILES       files of the repository (default 50000)
 *   BENCH_CODE_CONNECTIONS wrk connections of the PostgreSQL scenarios (default 8, at most
 *                          BENCH_CONNECTIONS); MongoDB's: BENCH_TOPICS_MONGO_CONNECTIONS (default 1)
 *   BENCH_SEED_CONCURRENCY inserts in flight while seeding (default 24)
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { picomatchMatcher } from "../../adapters/glob/picomatch-matcher.ts";
import { LIMIT_PER_FILE } from "../../core/code-context/dto.ts";
import type { Topic } from "../../core/topics/model.ts";
import { AnchoredTopics, type ExpectedMatch } from "../datasets/anchors.ts";
import { createGitRepo, describeLayout, repoLayout } from "../datasets/repo-files.ts";
import { countLabel, TopicDataset } from "../datasets/topics.ts";
import type { BenchContext } from "../scenario.ts";
import { type App, startApp } from "./app.ts";
import { freshMongo, freshPostgres, positiveInt, seed, topicConnections, type TopicsBackend } from "./topics.ts";

export const CODE_SLUG = "bench-code";
export const SESSION_HEADER = "x-service-session";

export interface CodeContextApp extends App {
  backend: TopicsBackend;
  anchored: AnchoredTopics;
  repoId: string;
}

/** Topics seeded for the code-context scenarios of a backend. */
export function anchoredTopicCount(backend: TopicsBackend): number {
  return backend === "postgres" ? positiveInt("BENCH_ANCHORED_TOPICS", 100_000) : positiveInt("BENCH_ANCHORED_TOPICS_MONGO", 200);
}

export function repoFileCount(): number {
  return positiveInt("BENCH_REPO_FILES", 50_000);
}

const anchoredSets = new Map<string, AnchoredTopics>();

/** The anchored dataset of a backend: its requests are known before anything is started. */
export function anchoredDataset(backend: TopicsBackend): AnchoredTopics {
  const count = anchoredTopicCount(backend);
  const files = repoFileCount();
  const key = `${count}/${files}`;
  let anchored = anchoredSets.get(key);
  if (!anchored) anchoredSets.set(key, anchored = new AnchoredTopics(new TopicDataset({ count }), repoLayout(files)));
  return anchored;
}

/**
 * wrk connections of the code-context scenarios (default 8, not BENCH_CONNECTIONS' 32): at 100k
 * topics a match-files request answered about 1 MB in 55-75 ms of its own (before its answer was
 * bounded to 20 topics per file, ADR 038), a retrieve request
 * takes 150-200 ms, and the 2-core machine serves a few of them at once. With 32 connections
 * each request waits behind 31 others: match-files measured p99 4.9 s, at wrk's 5 s timeout, and
 * retrieve completed no request within it, so the run measured nothing. Fewer connections queue
 * less, so a p99 met at 8 should be checked again at 32 (BENCH_CODE_CONNECTIONS=32).
 */
export function codeContextConnections(backend: TopicsBackend): number {
  return backend === "postgres" ? positiveInt("BENCH_CODE_CONNECTIONS", 8) : (topicConnections("mongo") ?? 1);
}

/** "(postgres, 100k anchored topics, 50k-file repo, 8 connections)": the suffix of a scenario name. */
export function codeContextLabel(backend: TopicsBackend, connections: number): string {
  return `(${backend}, ${countLabel(anchoredTopicCount(backend))} anchored topics, ${
    countLabel(repoFileCount())
  }-file repo, ${connections} connection${connections === 1 ? "" : "s"})`;
}

/**
 * The match-files request: the dataset's 50 paths, on the linked repo, in the default view (`full`)
 * with the default `limit_per_file` (20), as an agent that sets neither sends it.
 */
export function matchFilesBody(app: CodeContextApp): string {
  return JSON.stringify({ paths: app.anchored.queries.matchPaths, repo_id: app.repoId });
}

/** The retrieve request: the question, 5 paths, the default budget (4,000 tokens) said aloud. */
export function retrieveBody(app: CodeContextApp): string {
  const q = app.anchored.queries;
  return JSON.stringify({ question: q.question, paths: q.retrievePaths, repo_id: app.repoId, budget_tokens: 4_000 });
}

export function codeContextHeaders(app: CodeContextApp): Record<string, string> {
  return { "x-api-key": app.apiKey, "content-type": "application/json" };
}

/** The real server on a fresh database of `backend`, with the repo linked and the anchored topics seeded. */
export function codeContextApp(ctx: BenchContext, backend: TopicsBackend): Promise<CodeContextApp> {
  return ctx.use(`app:code-context-${backend}`, async () => {
    let started = performance.now();
    const anchored = anchoredDataset(backend);
    console.log(`  repo: ${describeLayout(anchored.layout)}; anchors drawn in ${seconds(started)} s`);
    for (const line of anchored.describe()) console.log(`  ${line}`);
    const repo = await createGitRepo(anchored.layout.files);
    console.log(`  repo: git repository created in ${repo.seconds.toFixed(2)} s (git fast-import, one commit on main) at ${repo.dir}`);
    const cacheDir = await mkdtemp(join(tmpdir(), "benchctx-gitcache-"));
    const cleanup = async () => {
      await repo.remove();
      await rm(cacheDir, { recursive: true, force: true });
    };
    let app: Awaited<ReturnType<typeof startApp>>;
    try {
      const databaseUrl = backend === "postgres" ? await freshPostgres(ctx) : await freshMongo(ctx);
      const env = { CODE_HOST_LOCAL_ROOTS: repo.dir, GIT_CACHE_DIR: cacheDir, ...(backend === "mongo" ? { MONGO_URL: databaseUrl } : {}) };
      app = await startApp(`server (${backend}, code context)`, backend === "postgres" ? databaseUrl : undefined, env, CODE_SLUG);
      try {
        started = performance.now();
        const repoId = await linkRepo(app.value, repo.dir, anchored.layout.files.length);
        console.log(
          `  ${backend}: repo linked and its ${anchored.layout.files.length.toLocaleString("en-US")} files indexed by the server in ${
            seconds(started)
          } s`,
        );
        anchored.repoId = repoId;
        await seed(backend, databaseUrl, app.value.slug, anchored, () => anchored.dataset.describe().slice(0, 1));
        const value: CodeContextApp = { ...app.value, backend, anchored, repoId };
        await showWork(value);
        return {
          value,
          stop: async () => {
            await app.stop();
            await cleanup();
          },
        };
      } catch (error) {
        await app.stop();
        throw error;
      }
    } catch (error) {
      await cleanup();
      throw error;
    }
  });
}

function seconds(since: number): string {
  return ((performance.now() - since) / 1000).toFixed(1);
}

/** An answer of the API under load, read loosely: the scenario checks status and a few fields. */
// deno-lint-ignore no-explicit-any
type Answer = { status: number; text: string; json: any };

async function call(
  app: App,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const response = await fetch(`${app.origin}/api/v1/workspaces/${app.slug}${path}`, {
    method,
    headers: { "x-api-key": app.apiKey, ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    signal: AbortSignal.timeout(60_000),
  });
  const text = await response.text();
  let json: Answer["json"] = null;
  try {
    json = JSON.parse(text);
  } catch {
    // Not JSON: `text` carries what came back.
  }
  return { status: response.status, text, json };
}

/** `POST /repos` with the local path, then waits for the server's background index of it. */
async function linkRepo(app: App, dir: string, files: number): Promise<string> {
  const created = await call(app, "POST", "/repos", { provider: "github", full_name: "acme/monorepo", clone_url: dir });
  if (created.status !== 201) throw new Error(`POST /repos answered ${created.status}: ${created.text.slice(0, 500)}`);
  const repoId = String(created.json.id);
  const deadline = Date.now() + 120_000;
  for (;;) {
    const index = await call(app, "GET", `/repos/${repoId}/index`);
    if (index.status !== 200) throw new Error(`GET /repos/${repoId}/index answered ${index.status}: ${index.text.slice(0, 500)}`);
    if (index.json.indexed) {
      if (index.json.file_count !== files) throw new Error(`The repo index holds ${index.json.file_count} files, the repository ${files}`);
      return repoId;
    }
    if (Date.now() > deadline) throw new Error(`The repo was not indexed within 120 s: ${index.text}`);
    await Bun.sleep(100);
  }
}

function spread(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return `${sorted[0]}-${sorted[sorted.length - 1]}, median ${at(0.5)}`;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;

/**
 * One match-files and one retrieve request outside the load: what each loaded request does, and
 * whether the server found what the dataset put there (a difference is a WARNING, not fatal).
 */
async function showWork(app: CodeContextApp): Promise<void> {
  const { anchored, backend } = app;
  const q = anchored.queries;
  const compile = picomatchMatcher.compile;

  const match = await call(app, "POST", "/topics/match-files", matchFilesBody(app), { [SESSION_HEADER]: "bench-check" });
  if (match.status !== 201) throw new Error(`POST /topics/match-files answered ${match.status}: ${match.text.slice(0, 500)}`);
  const files = match.json.files as { path: string; total: number; topics: { id: string }[] }[];
  const perPath = files.map((f) => f.total);
  const listed = files.reduce((n, f) => n + f.topics.length, 0);
  const distinct = new Set(files.flatMap((f) => f.topics.map((t) => t.id)));
  const pairs = perPath.reduce((a, b) => a + b, 0);
  const expected: ExpectedMatch = anchored.expect(q.matchPaths, compile);
  const same = pairs === expected.pairs && perPath.every((n, i) => n === expected.perPath[i]);
  // The same request in the compact view: only its size is printed, to compare with the default's.
  const compact = await call(app, "POST", "/topics/match-files", { ...JSON.parse(matchFilesBody(app)), view: "compact" }, {
    [SESSION_HEADER]: "bench-check",
  });
  if (compact.status !== 201) {
    throw new Error(`POST /topics/match-files (compact) answered ${compact.status}: ${compact.text.slice(0, 500)}`);
  }
  console.log(
    `  ${backend}: match-files with ${q.matchPaths.length} paths -> ${pairs.toLocaleString("en-US")} (path, topic) pairs ` +
      `(${expected.topics.toLocaleString("en-US")} distinct topics), per path ${spread(perPath)}; ` +
      `view ${match.json.view} lists ${listed.toLocaleString("en-US")} (at most ${LIMIT_PER_FILE.default} per path) of ` +
      `${distinct.size.toLocaleString("en-US")} distinct topics; truncated ${match.json.truncated}; ` +
      `${kb(match.text.length)} of JSON (view compact: ${kb(compact.text.length)}); ` +
      `${expected.candidates.toLocaleString("en-US")} candidate topics for anchoredAt to read ` +
      `(${same ? "as generated" : `WARNING: the dataset has ${expected.pairs} pairs, ${expected.topics} topics`})`,
  );

  const retrieved = await call(app, "POST", "/topics/retrieve", retrieveBody(app), { [SESSION_HEADER]: "bench-check" });
  if (retrieved.status !== 201) throw new Error(`POST /topics/retrieve answered ${retrieved.status}: ${retrieved.text.slice(0, 500)}`);
  const r = retrieved.json as { topics: { reasons: string[]; text: string }[]; omitted: number; used_tokens: number };
  const reasons = { file: 0, text: 0, relation: 0 };
  for (const t of r.topics) {
    for (const k of ["file", "text", "relation"] as const) if (t.reasons.some((x) => x.startsWith(`${k}:`))) reasons[k]++;
  }
  const byFile = anchored.expect(q.retrievePaths, compile, ["proposed", "reviewed"] satisfies Topic["status"][]);
  console.log(
    `  ${backend}: retrieve "${q.question}" + ${q.retrievePaths.length} paths -> ${r.topics.length} topics in ${r.used_tokens} tokens ` +
      `(by file ${reasons.file}, by text ${reasons.text}, by relation ${reasons.relation}), ${r.omitted} more relevant omitted; ` +
      `${kb(retrieved.text.length)} of JSON; its paths match ${byFile.topics} proposed or reviewed topics ` +
      `(of ${byFile.candidates} candidates); every loaded request is a new ${SESSION_HEADER}`,
  );
}
