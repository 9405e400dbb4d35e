/**
 * Property-based fuzz of the HTTP API from its own OpenAPI document, with
 * Schemathesis 4.
 *
 *   bun tests/fuzz/schemathesis.ts
 *
 * Starts the real server (`bun server/main.ts`) on a free port with a fresh
 * temporary DATA_DIR, bootstraps a workspace to get an API key, and runs
 * `schemathesis run` against /api/v1/openapi.json with the key for both of the document's
 * security schemes (`x-api-key`, and `Authorization: Bearer`).
 *
 * Path parameters naming a workspace slug are drawn from a dictionary holding
 * the real slug most of the time, so authenticated operations reach a real
 * workspace instead of only answering 404. Some operations can take the fuzzing
 * key's own access away (delete the workspace, revoke an API key, remove or
 * demote a member: Schemathesis reuses ids it saw in earlier responses, so it
 * does find the key's own id). In the main pass they are aimed at another
 * tenant's workspace, which exercises tenant isolation; then each of them gets
 * a pass of its own on a fresh workspace (after the operations that create and
 * list what it acts on), so it is also exercised for real without starving
 * the other operations of a working key.
 *
 * Checks: all of Schemathesis' checks (override with FUZZ_CHECKS), in every
 * phase, the stateful one included (it follows the document's create links).
 * What is configured off, and why, is in GENERATION and CHECKS_OFF below.
 *
 * Environment:
 *   FUZZ_MAX_EXAMPLES  test cases per operation and phase (default 25)
 *   FUZZ_SEED          random seed (default 20240601): the same seed replays the same cases
 *   FUZZ_TIMEOUT       wall-clock bound of all Schemathesis passes, in seconds (default 900)
 *   FUZZ_CHECKS        comma-separated Schemathesis checks
 *   FUZZ_PHASES        comma-separated phases (default: Schemathesis' own, all of them)
 *   FUZZ_WORKERS       concurrent Schemathesis workers (default 1, for a reproducible order)
 *   FUZZ_INCLUDE       a regular expression: fuzz only the operations whose label (`METHOD /path`)
 *                      it matches, e.g. `oauth` (default: every operation)
 *   FUZZ_REPORT_DIR    keep the JUnit reports and schemathesis.toml files here
 *                      (default: a temporary directory, removed)
 *   FUZZ_LOG_LEVEL     LOG_LEVEL of the server (default warn: its errors, not every request)
 *
 * Exits non-zero when Schemathesis finds a failure or cannot run. The last
 * line is always `fuzz: N passed, M failed`, counted in API operations.
 */
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type AppServer, bootstrapWorkspace, startAppServer, stopAllAppServers } from "../support/app-server.ts";
import { isShuttingDown, refuseNewChildren, spawnChild, stopAllChildren } from "../support/child-process.ts";

const SLUG = "fuzz-ws";
/** Another tenant's workspace: the fuzzing key must not be able to touch it. */
const FOREIGN_SLUG = "fuzz-other-ws";
/** Path parameter names that hold a workspace slug. */
const SLUG_PARAMETERS = /^(slug|workspace|workspace_slug|workspaceSlug)$/;
/** Share of generated slug values taken from the real workspace; the rest stay random. */
const SLUG_PROBABILITY = 0.8;
/** Operations that can take the fuzzing key's own access away. */
const ACCESS_DESTROYING: RegExp[] = [
  /^DELETE \S*\/\{(slug|workspace|workspace_slug|workspaceSlug)\}$/, // the workspace itself
  /^DELETE \S*\/api-keys\/\{[^}]+\}$/, // revoking a key, the fuzzing one included
  /^(DELETE|PATCH) \S*\/members\/\{[^}]+\}$/, // removing or demoting the key's owner
];

/**
 * Generation settings of every pass. No text of the API may hold U+0000 (no store keeps it;
 * the document's description says so and such a value is a 400), a rule JSON Schema cannot say
 * on every string of every body, so Schemathesis is told not to generate it.
 */
const GENERATION = ["[generation]", "allow-x00 = false", ""];
/**
 * Every check, said in the config file rather than with `--checks all`: a check named on the
 * command line would win over the per-operation exceptions below.
 */
const CHECKS = [
  "[checks]",
  "enabled = true",
  "",
  // Schemathesis' own list plus 413: a body past BODY_LIMIT_BYTES is refused (PAYLOAD_TOO_LARGE)
  // before it is read, whatever else is wrong with it.
  "[checks.negative_data_rejection]",
  'expected-statuses = ["400", "401", "403", "404", "405", "406", "409", "413", "415", "422", "428", "429", "5xx"]',
  "",
];

/**
 * Operations where `positive_data_acceptance` (ST202, "schema-valid request rejected") is off,
 * each for a rule a JSON Schema of the request cannot state: it depends on stored state, on another
 * parameter, or on a credential. Everything else about these operations is still checked, and
 * their refusals are tested in tests/api. Matched against Schemathesis' labels (`METHOD /path`).
 */
const ACCEPTANCE_UNCHECKABLE: Array<{ operations: RegExp; why: string }> = [
  {
    operations: /^GET \S*\/(collections\/\{id\}\/(records|retrieve)|radar\/credits\/history)$/,
    why: "`cursor` is opaque: only one the server issued for this listing is accepted",
  },
  { operations: /^GET \S*\/(topics|watchers)$/, why: "`auto` and `manual` must not contradict each other" },
  {
    operations: /^(GET|POST) \/api\/v1\/email\/unsubscribe$/,
    why: "`token` must be one this server signed (HMAC-SHA256 under SECRET_KEY)",
  },
  { operations: /^POST \S*\/billing\/checkout-session$/, why: "exactly one of `plan` and `credits`" },
  { operations: /^GET \S*\/(topics|watchers)\/search$/, why: "`q` holds at most 8 distinct words, as the search folds and splits them" },
  {
    operations: /^(POST|PATCH|DELETE) \S*\/(tags(\/\{name\})?|topics|watchers)$/,
    why: "a tag name must keep 1 to 64 characters after normalisation (case, accents, separators folded)",
  },
  {
    operations: /^POST \/api\/v1\/workspaces$/,
    why: "`owner_email`/`owner_name` are for the unauthenticated bootstrap, and the fuzz sends its key on every request",
  },
  { operations: /^POST \S*\/api-keys$/, why: "`member_id` and `service` are exclusive" },
  {
    operations: /^POST \S*\/repos$/,
    why: "`clone_url` must be a source the server reads: a local path only under CODE_HOST_LOCAL_ROOTS (none here), a well-formed host",
  },
  { operations: /^POST \S*\/collections$/, why: "`owner_identity_id` must be a member of the workspace" },
  {
    operations: /^POST \S*\/collections\/\{id\}\/records(\/query|\/aggregate)?$/,
    why: "record fields, filter fields and metrics must fit the collection's own record_schema",
  },
  {
    operations: /^POST \S*\/collections\/\{id\}\/records\/import$/,
    why: "a CSV header's columns and an NDJSON line's fields must be fields of the collection's own record_schema",
  },
  { operations: /^POST \S*\/(topics|watchers)\/(match-files|mark-drift)$/, why: "`repo_id` must name a repo of the workspace" },
  { operations: /^POST \S*\/(topics|watchers)\/retrieve$/, why: "`question` and/or `paths` is required" },
  { operations: /^POST \S*\/(topics|watchers)\/\{topic\}\/move$/, why: "`slug` and/or `area_id` is required" },
  { operations: /^POST \S*\/(topics|watchers)\/\{topic\}\/(merge|relations)$/, why: "`target` must be another topic than the path's" },
  {
    operations: /^POST \S*\/(topics|watchers)\/\{topic\}\/proposals$/,
    why: "anchor patterns use `\\s`, which ECMAScript (the dialect JSON Schema names) and Python's generator read differently",
  },
  { operations: /^POST \S*\/(topics|watchers)\/\{topic\}\/share-with$/, why: "`member_ids` must name members of the workspace" },
  {
    operations: /^POST \S*\/radar\/searches$/,
    why: "exactly one of `criterion` and `criterion_slug`; a new criterion's `filter` must be of its `kind`, with `min` ≤ `max`",
  },
  {
    operations: /^PATCH \S*\/workspaces\/\{slug\}\/plan$/,
    why: "`enterprise` is a valid plan that only the platform operator sets and ends: here it is a 409 PLAN_CHANGE_NOT_ALLOWED",
  },
  {
    operations: /^POST \S*\/oauth\/register$/,
    why: "`redirect_uris` must be https, or http on a loopback host, without a fragment; the body is typed loosely on purpose, so that " +
      "a wrong field is RFC 7591's `invalid_client_metadata` rather than the envelope's VALIDATION_FAILED",
  },
  {
    operations: /^(GET|POST) \S*\/oauth\/authorize$/,
    why: "`client_id` must name a registered client and `redirect_uri` one of its URIs; the decision also needs the consent page's " +
      "CSRF token (the form) or a person's key (JSON)",
  },
  {
    operations: /^PATCH \S*\/radar\/criteria\/\{criterionSlug\}$/,
    why: "`filter` must be a filter of the stored criterion's kind, and an `employee_count`'s `min` must not exceed its `max`",
  },
];

/**
 * Operations left out of the stateful phase, as producers and as targets. `POST /workspaces`
 * creates a workspace that only the key in its own answer can reach (keys are scoped to their
 * workspace; another workspace is a 404 by design), while every link Schemathesis infers from it
 * would be followed with the fuzz key: its "created resource not found" (ST302) would report the
 * tenancy rule as a defect. The operation is still fuzzed in every other phase.
 */
const NOT_STATEFUL: RegExp[] = [/^POST \/api\/v1\/workspaces$/];

/**
 * Also unchecked for acceptance: every operation taking both `If-Match` and an `expected_version`
 * (query or body), since two given versions must agree; found in the document, not listed.
 */
function takesTwoVersions(operation: any): boolean {
  const params: Array<{ name?: string; in?: string }> = operation?.parameters ?? [];
  const ifMatch = params.some((p) => p.in === "header" && p.name === "if-match");
  const inQuery = params.some((p) => p.in === "query" && p.name === "expected_version");
  const inBody = Object.values(operation?.requestBody?.content ?? {}).some((c: any) => c?.schema?.properties?.expected_version);
  return ifMatch && (inQuery || inBody);
}

/**
 * Operations whose documented 503 is this deployment's right answer: the fuzz server has no billing
 * provider, so checkout and portal are 503 `BILLING_NOT_CONFIGURED` (after the 401/403/400
 * checks), which `not_a_server_error` would otherwise report.
 */
const UNCONFIGURED_503: RegExp[] = [/^POST \S*\/billing\/(checkout|portal)-session$/];

function acceptanceUncheckable(document: OpenApiDocument): string[] {
  const out: string[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      if (!(method in item)) continue;
      const label = `${method.toUpperCase()} ${path}`;
      if (ACCEPTANCE_UNCHECKABLE.some((u) => u.operations.test(label)) || takesTwoVersions(item[method])) out.push(label);
    }
  }
  return out;
}

const settings = {
  maxExamples: positiveInteger("FUZZ_MAX_EXAMPLES", 25),
  seed: positiveInteger("FUZZ_SEED", 20240601),
  timeoutSeconds: positiveInteger("FUZZ_TIMEOUT", 900),
  workers: positiveInteger("FUZZ_WORKERS", 1),
  /** Comma-separated check names from FUZZ_CHECKS; unset, every check (as the config file says). */
  checks: process.env.FUZZ_CHECKS || undefined,
  phases: process.env.FUZZ_PHASES || undefined,
  /** FUZZ_INCLUDE: only the operations whose label matches; unset, all of them. */
  include: process.env.FUZZ_INCLUDE ? new RegExp(process.env.FUZZ_INCLUDE) : undefined,
  reportDir: process.env.FUZZ_REPORT_DIR || undefined,
  logLevel: process.env.FUZZ_LOG_LEVEL || "warn",
};

function positiveInteger(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`Invalid ${name}: expected a positive integer, got ${raw}`);
  return value;
}

// ---------------------------------------------------------------- Schemathesis itself

interface Cli {
  cmd: string[];
  version: string;
}

const PYTHON = Bun.which("python3") ?? "python3";
const CLI_CANDIDATES: string[][] = [
  ["schemathesis"],
  // pip may put the console script in a directory that is not on PATH.
  [PYTHON, "-c", "import sys; from schemathesis.cli import schemathesis; sys.argv[0] = 'schemathesis'; sys.exit(schemathesis())"],
];

async function findSchemathesis(): Promise<Cli | null> {
  for (const cmd of CLI_CANDIDATES) {
    if (cmd[0] === "schemathesis" && !Bun.which("schemathesis")) continue;
    const child = spawnChild("schemathesis --version", [...cmd, "--version"]);
    if ((await child.exited) !== 0) continue;
    const version = /version\s+(\d+\.\d+\.\d+\S*)/.exec(child.tail())?.[1];
    if (version?.startsWith("4.")) return { cmd, version };
  }
  return null;
}

async function ensureSchemathesis(): Promise<Cli> {
  const found = await findSchemathesis();
  if (found) return found;
  // Pinned: a newer release may add checks, and CI installs afresh.
  console.log("Schemathesis 4 is missing: python3 -m pip install --quiet schemathesis==4.32.5 ...");
  const pip = spawnChild("pip", [PYTHON, "-m", "pip", "install", "--quiet", "schemathesis==4.32.5"], { echo: true });
  if ((await pip.exited) !== 0) throw new Error("Cannot install Schemathesis: pip install failed (see above)");
  const installed = await findSchemathesis();
  if (!installed) throw new Error("Cannot run Schemathesis: still not runnable after pip install");
  return installed;
}

// ---------------------------------------------------------------- the document and the passes

type OpenApiDocument = { paths?: Record<string, Record<string, any>> };
const METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"];

async function fetchDocument(origin: string): Promise<OpenApiDocument> {
  const response = await fetch(`${origin}/api/v1/openapi.json`);
  if (response.status !== 200) throw new Error(`GET /api/v1/openapi.json answered ${response.status}`);
  return (await response.json()) as OpenApiDocument;
}

/** Operation labels as Schemathesis writes them: `METHOD /path/{param}`. */
function operationLabels(document: OpenApiDocument): string[] {
  const labels: string[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) if (method in item) labels.push(`${method.toUpperCase()} ${path}`);
  }
  return labels;
}

function slugParameters(document: OpenApiDocument): string[] {
  const names = new Set<string>();
  for (const path of Object.keys(document.paths ?? {})) {
    for (const match of path.matchAll(/\{([^}]+)\}/g)) if (SLUG_PARAMETERS.test(match[1]!)) names.add(match[1]!);
  }
  return [...names];
}

interface Pass {
  name: string;
  apiKey: string;
  toml: string;
  /** Restrict the pass to these operations (all when absent). */
  only?: string[];
}

/**
 * schemathesis.toml of one pass: slug parameters take `slug` with
 * SLUG_PROBABILITY; the `pinned` operations always get `pinnedSlug`
 * (a fixed value applies in every phase, a dictionary in fuzzing only).
 */
function configToml(
  parameters: string[],
  slug: string,
  unchecked: string[],
  stateless: string[],
  unconfigured: string[],
  pinned: string[] = [],
  pinnedSlug = "",
): string {
  const lines = [
    "# Written by tests/fuzz/schemathesis.ts for one pass.",
    ...GENERATION,
    ...CHECKS,
    "[dictionaries.workspace-slug]",
    `values = [${JSON.stringify(slug)}]`,
    "",
    "[parameters]",
    ...parameters.map(
      (name) => `${JSON.stringify(`path.${name}`)} = { dictionary = "workspace-slug", probability = ${SLUG_PROBABILITY} }`,
    ),
  ];
  for (const label of pinned) {
    lines.push("", "[[operations]]", `include-name = ${JSON.stringify(label)}`, "[operations.parameters]");
    for (const name of parameters) lines.push(`${JSON.stringify(`path.${name}`)} = ${JSON.stringify(pinnedSlug)}`);
  }
  for (const label of [...new Set([...unchecked, ...stateless, ...unconfigured])].filter((l) => !pinned.includes(l))) {
    const settings = [
      ...(unchecked.includes(label) ? ["checks.positive_data_acceptance.enabled = false"] : []),
      ...(stateless.includes(label) ? ["phases.stateful.enabled = false"] : []),
      ...(unconfigured.includes(label) ? ['checks.not_a_server_error.expected-statuses = ["2xx", "3xx", "4xx", "503"]'] : []),
    ];
    if (settings.length) lines.push("", "[[operations]]", `include-name = ${JSON.stringify(label)}`, ...settings);
  }
  return `${lines.join("\n")}\n`;
}

async function planPasses(origin: string, document: OpenApiDocument): Promise<Pass[]> {
  const parameters = slugParameters(document);
  const labels = operationLabels(document);
  const included = settings.include ? labels.filter((label) => settings.include!.test(label)) : labels;
  if (included.length === 0) throw new Error(`FUZZ_INCLUDE=${process.env.FUZZ_INCLUDE} matches no operation of the document`);
  const guarded = included.filter((label) => ACCESS_DESTROYING.some((re) => re.test(label)));
  const unchecked = acceptanceUncheckable(document);
  const stateless = labels.filter((label) => NOT_STATEFUL.some((re) => re.test(label)));
  const unconfigured = labels.filter((label) => UNCONFIGURED_503.some((re) => re.test(label)));
  const main = await bootstrapWorkspace(origin, SLUG);
  const foreign = await bootstrapWorkspace(origin, FOREIGN_SLUG, "other-owner@example.com");
  const passes: Pass[] = [
    {
      name:
        `${settings.include ? `${included.length} operations matching ${settings.include}` : "all operations"} on workspace ${main.slug}` +
        (guarded.length ? ` (${guarded.length} access-destroying ones aimed at foreign workspace ${foreign.slug})` : ""),
      apiKey: main.apiKey,
      toml: configToml(parameters, main.slug, unchecked, stateless, unconfigured, guarded, foreign.slug),
      ...(settings.include ? { only: included } : {}),
    },
  ];
  for (const [index, label] of guarded.entries()) {
    const own = await bootstrapWorkspace(origin, `fuzz-solo-${index + 1}`, `solo-${index + 1}@example.com`);
    const only = [...companions(label, labels), label];
    passes.push({
      name: `${label} on its own workspace ${own.slug}` + (only.length > 1 ? `, after ${only.slice(0, -1).join(", ")}` : ""),
      apiKey: own.apiKey,
      // A pass whose producer is out of the stateful phase has no scenario to start from: that phase is off for it.
      toml: configToml(parameters, own.slug, unchecked, stateless, unconfigured) +
        (only.some((l) => stateless.includes(l)) ? "\n[phases.stateful]\nenabled = false\n" : ""),
      only,
    });
  }
  return passes;
}

/**
 * The operations that create or list what `label` acts on (`POST`/`GET` of
 * its collection, `GET` of the item): Schemathesis runs them first and reuses
 * the ids they return, so the guarded operation meets real resources.
 */
function companions(label: string, labels: string[]): string[] {
  const path = label.slice(label.indexOf(" ") + 1);
  const collection = path.replace(/\/\{[^}]+\}$/, "");
  const wanted = new Set([`POST ${collection}`, `GET ${collection}`, `GET ${path}`]);
  return labels.filter((candidate) => candidate !== label && wanted.has(candidate));
}

// ---------------------------------------------------------------- running a pass

type Outcome = "passed" | "failed" | "skipped";

interface PassResult {
  code: number;
  timedOut: boolean;
  /** Outcome per JUnit test case (operation labels, plus entries like "Stateful tests"); null without report. */
  outcomes: Map<string, Outcome> | null;
}

async function runPass(cli: Cli, origin: string, pass: Pass, dir: string, deadline: number): Promise<PassResult> {
  const configPath = join(dir, "schemathesis.toml");
  const junitPath = join(dir, "junit.xml");
  await mkdir(dir, { recursive: true });
  // The key for both of the document's security schemes (`apiKey`: x-api-key; `bearer`:
  // Authorization), so Schemathesis knows both headers as authentication (its auth checks remove or
  // spoil them) and never makes one up; the same key in both is one credential.
  const auth = `[auth.openapi.apiKey]\napi_key = ${JSON.stringify(pass.apiKey)}\n\n[auth.openapi.bearer]\nbearer = ${
    JSON.stringify(pass.apiKey)
  }\n\n`;
  await Bun.write(configPath, auth + pass.toml);
  const args = [
    "--config-file",
    configPath,
    "run",
    `${origin}/api/v1/openapi.json`,
    "--max-examples",
    String(settings.maxExamples),
    "--seed",
    String(settings.seed),
    "--workers",
    String(settings.workers),
    "--generation-database",
    "none",
    "--request-timeout",
    "10",
    "--report",
    "junit",
    "--report-junit-path",
    junitPath,
  ];
  if (settings.checks) args.push("--checks", settings.checks);
  for (const label of pass.only ?? []) args.push("--include-name", label);
  // The event streams stay open by design (Server-Sent Events: the workspace's forever, a run's until
  // it ends, and a fuzzed run never starts); tests/api/event-stream.test.ts and radar-runs.suite.ts cover them.
  // The Markdown imports and the workspace import take a gzip'd tar (or a zip) as their body, which
  // Schemathesis has no serializer for ("Serialization not possible"); tests/api/topic-import.test.ts
  // and tests/api/workspace-archive.suite.ts send real archives, broken ones and unsafe ones on
  // every backend.
  args.push("--exclude-path-regex", "/stream$|/(topics|watchers)/import$|/workspaces/[^/]+/import$");
  if (settings.phases) args.push("--phases", settings.phases);
  if (!process.stdout.isTTY) args.push("--no-color");

  const remainingMs = deadline - Date.now();
  if (remainingMs <= 0) return { code: 1, timedOut: true, outcomes: null };
  // Its own directory as cwd: whatever Schemathesis caches there is thrown away.
  const child = spawnChild("schemathesis", [...cli.cmd, ...args], { cwd: dir, env: { PYTHONUNBUFFERED: "1" }, echo: "raw" });
  const timedOut = await Promise.race([child.exited.then(() => false), Bun.sleep(remainingMs).then(() => true)]);
  if (timedOut) {
    console.error(`\nfuzz: FUZZ_TIMEOUT=${settings.timeoutSeconds}s is spent: stopping Schemathesis`);
    await child.stop(5000);
  }
  const code = await child.exited;
  const junit = Bun.file(junitPath);
  const outcomes = (await junit.exists()) ? parseJunit(await junit.text()) : null;
  return { code, timedOut, outcomes };
}

function parseJunit(xml: string): Map<string, Outcome> {
  const outcomes = new Map<string, Outcome>();
  for (const match of xml.matchAll(/<testcase\b([^>]*?)(\/>|>([\s\S]*?)<\/testcase>)/g)) {
    const name = unescapeXml(/\bname="([^"]*)"/.exec(match[1]!)?.[1] ?? "?");
    const body = match[3] ?? "";
    outcomes.set(name, /<(failure|error)\b/.test(body) ? "failed" : /<skipped\b/.test(body) ? "skipped" : "passed");
  }
  return outcomes;
}

function unescapeXml(text: string): string {
  return text
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&quot;", '"')
    .replaceAll("&apos;", "'")
    .replaceAll("&amp;", "&");
}

/** Merges outcomes across passes: failed anywhere beats passed, passed beats skipped. */
function merge(into: Map<string, Outcome>, from: Map<string, Outcome>, passName: string): void {
  const rank: Record<Outcome, number> = { skipped: 0, passed: 1, failed: 2 };
  for (const [name, outcome] of from) {
    // Entries that are not operations ("Stateful tests") are named after their pass.
    const key = /^[A-Z]+ \//.test(name) ? name : `${name} (${passName})`;
    const previous = into.get(key);
    if (!previous || rank[outcome] > rank[previous]) into.set(key, outcome);
  }
}

// ---------------------------------------------------------------- main

/** Temporary directory of the run (configs, reports, Schemathesis' cwd), removed at the end. */
let workDir: string | null = null;
let removingWorkDir: Promise<void> | null = null;
/** Removes the work directory once, whoever asks first (the run's end or a signal). */
function removeWorkDir(): Promise<void> {
  const dir = workDir;
  if (!dir) return Promise.resolve();
  return (removingWorkDir ??= rm(dir, { recursive: true, force: true }).catch(() => undefined));
}

interface Summary {
  code: number;
  operations: { passed: string[]; failed: string[] };
}

async function main(): Promise<Summary> {
  const cli = await ensureSchemathesis();
  const dir = await mkdtemp(join(tmpdir(), "wks-fuzz-"));
  workDir = dir;
  const reportDir = settings.reportDir ?? dir;
  const deadline = Date.now() + settings.timeoutSeconds * 1000;
  let server: AppServer | null = null;
  try {
    // Thousands of requests with one key: per-key limiting off (RATE_LIMIT_PER_KEY=0) and per-IP limiting off.
    // The fuzz links repos with made-up remote URLs, and none may reach the network (nor DNS):
    // CODE_HOST_ALLOW_PRIVATE=true leaves host names unresolved when a repo is linked, and
    // GIT_ALLOW_PROTOCOL=file makes the code host refuse https and ssh before resolving anything,
    // so their index jobs fail at once. No local roots (CODE_HOST_LOCAL_ROOTS unset): a made-up
    // local path is refused with 400 when linked.
    server = await startAppServer({
      name: "server",
      env: {
        LOG_LEVEL: settings.logLevel,
        RATE_LIMIT_PER_KEY: "0",
        RATE_LIMIT_PER_IP: "0",
        GIT_ALLOW_PROTOCOL: "file",
        CODE_HOST_ALLOW_PRIVATE: "true",
      },
    });
    const passes = await planPasses(server.origin, await fetchDocument(server.origin));
    console.log(
      `Schemathesis ${cli.version} against ${server.origin}/api/v1/openapi.json: checks ${settings.checks ?? "all"}; ` +
        `${settings.maxExamples} examples per operation, seed ${settings.seed}; ${passes.length} passes`,
    );

    const outcomes = new Map<string, Outcome>();
    let failedPasses = 0;
    for (const [index, pass] of passes.entries()) {
      if (isShuttingDown()) break;
      console.log(`\n═══ fuzz pass ${index + 1}/${passes.length}: ${pass.name}\n`);
      const result = await runPass(cli, server.origin, pass, join(reportDir, `pass-${index + 1}`), deadline);
      if (result.outcomes) merge(outcomes, result.outcomes, `pass ${index + 1}`);
      else console.error(`fuzz: pass ${index + 1} wrote no JUnit report`);
      if (result.code !== 0 || result.timedOut || !result.outcomes) failedPasses++;
      if (result.timedOut) break;
    }

    const operations = { passed: [] as string[], failed: [] as string[] };
    const skipped: string[] = [];
    for (const [name, outcome] of outcomes) {
      if (outcome === "failed") operations.failed.push(name);
      else if (outcome === "passed" && /^[A-Z]+ \//.test(name)) operations.passed.push(name);
      else if (outcome === "skipped") skipped.push(name);
    }
    console.log("");
    if (skipped.length > 0) console.log(`fuzz: skipped: ${skipped.join("; ")}`);
    if (operations.failed.length > 0) console.log(`fuzz: failing: ${operations.failed.join("; ")}`);
    const failed = failedPasses > 0 || operations.failed.length > 0;
    if (failed && !isShuttingDown() && server.child.tail().trim()) {
      // A 5xx comes with an error line and a stack trace in the server's log.
      console.error(`\n--- last server output (LOG_LEVEL=${settings.logLevel}) ---\n${server.child.tail(80)}\n---`);
    }
    if (settings.reportDir) console.log(`fuzz: reports in ${settings.reportDir}`);
    return { code: failed ? 1 : 0, operations };
  } finally {
    await server?.stop();
    await removeWorkDir();
  }
}

const onSignal = async (signal: string) => {
  if (isShuttingDown()) return;
  refuseNewChildren();
  console.error(`\n${signal}: stopping the server and Schemathesis...`);
  await stopAllChildren();
  await stopAllAppServers();
  await removeWorkDir();
  console.log("fuzz: 0 passed, 0 failed");
  process.exit(130);
};
process.on("SIGINT", () => void onSignal("SIGINT"));
process.on("SIGTERM", () => void onSignal("SIGTERM"));

let summary: Summary = { code: 1, operations: { passed: [], failed: [] } };
try {
  summary = await main();
} catch (error) {
  console.error(`fuzz: cannot run: ${(error as Error).message}`);
} finally {
  await stopAllChildren();
}
console.log(`fuzz: ${summary.operations.passed.length} passed, ${summary.operations.failed.length} failed`);
process.exit(summary.code);
