/**
 * Property-based fuzz of the HTTP API from its own OpenAPI document, with
 * Schemathesis 4.
 *
 *   bun tests/fuzz/schemathesis.ts
 *
 * Starts the real server (`bun server/main.ts`) on a free port with a fresh
 * temporary DATA_DIR, bootstraps a workspace to get an API key, and runs
 * `schemathesis run` against /api/v1/openapi.json with the key in `x-api-key`.
 * Path parameters that name a workspace slug are drawn from a dictionary
 * holding the real slug most of the time, so authenticated operations reach a
 * real workspace instead of only answering 404.
 *
 * Checks: not_a_server_error, response_schema_conformance,
 * status_code_conformance (override with FUZZ_CHECKS).
 *
 * Environment:
 *   FUZZ_MAX_EXAMPLES  test cases per operation and phase (default 25)
 *   FUZZ_SEED          random seed (default 20240601): the same seed replays the same cases
 *   FUZZ_TIMEOUT       wall-clock bound of the Schemathesis run in seconds (default 900)
 *   FUZZ_CHECKS        comma-separated Schemathesis checks
 *   FUZZ_PHASES        comma-separated phases (default: Schemathesis' own, all of them)
 *   FUZZ_WORKERS       concurrent Schemathesis workers (default 1, for a reproducible order)
 *   FUZZ_REPORT_DIR    keep the JUnit report here (default: a temporary directory, removed)
 *
 * Exits non-zero when Schemathesis finds a failure or cannot run. The last
 * line is always `fuzz: N passed, M failed`, counted in operations.
 */
import { mkdtemp, rm, mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startAppServer, bootstrapWorkspace, type AppServer } from "../../bench/lib/app-server.ts";
import { spawnChild, stopAllChildren } from "../../bench/lib/process.ts";

const SLUG = "fuzz-ws";
/** Path parameter names that hold a workspace slug. */
const SLUG_PARAMETERS = /^(slug|workspace|workspace_slug|workspaceSlug|ws)$/;
/** Share of generated slug values taken from the real workspace; the rest stay random. */
const SLUG_PROBABILITY = 0.8;

const settings = {
  maxExamples: positiveInteger("FUZZ_MAX_EXAMPLES", 25),
  seed: positiveInteger("FUZZ_SEED", 20240601),
  timeoutSeconds: positiveInteger("FUZZ_TIMEOUT", 900),
  workers: positiveInteger("FUZZ_WORKERS", 1),
  checks: process.env.FUZZ_CHECKS || "not_a_server_error,response_schema_conformance,status_code_conformance",
  phases: process.env.FUZZ_PHASES || undefined,
  reportDir: process.env.FUZZ_REPORT_DIR || undefined,
};

function positiveInteger(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`Invalid ${name}: expected a positive integer, got ${raw}`);
  return value;
}

// ---------------------------------------------------------------- Schemathesis

const PYTHON = Bun.which("python3") ?? "python3";
const CLI_CANDIDATES: string[][] = [
  ["schemathesis"],
  // pip may put the console script in a directory that is not on PATH.
  [PYTHON, "-c", "import sys; from schemathesis.cli import schemathesis; sys.argv[0] = 'schemathesis'; sys.exit(schemathesis())"],
];

async function findSchemathesis(): Promise<{ cli: string[]; version: string } | null> {
  for (const cli of CLI_CANDIDATES) {
    if (cli[0] === "schemathesis" && !Bun.which("schemathesis")) continue;
    const child = spawnChild("schemathesis --version", [...cli, "--version"]);
    if ((await child.exited) !== 0) continue;
    const version = /version\s+(\d+\.\d+\.\d+\S*)/.exec(child.tail())?.[1];
    if (version && version.startsWith("4.")) return { cli, version };
  }
  return null;
}

async function ensureSchemathesis(): Promise<{ cli: string[]; version: string }> {
  const found = await findSchemathesis();
  if (found) return found;
  console.log("Schemathesis 4 is missing: python3 -m pip install --quiet 'schemathesis>=4,<5' ...");
  const pip = spawnChild("pip", [PYTHON, "-m", "pip", "install", "--quiet", "schemathesis>=4,<5"], { echo: true });
  if ((await pip.exited) !== 0) throw new Error("Cannot install Schemathesis: pip install failed (see above)");
  const installed = await findSchemathesis();
  if (!installed) throw new Error("Cannot run Schemathesis: still not runnable after pip install");
  return installed;
}

// ---------------------------------------------------------------- configuration

/** Path parameter names of the document that hold a workspace slug. */
async function slugParameters(origin: string): Promise<string[]> {
  const response = await fetch(`${origin}/api/v1/openapi.json`);
  if (response.status !== 200) throw new Error(`GET /api/v1/openapi.json answered ${response.status}`);
  const document = (await response.json()) as { paths?: Record<string, Record<string, unknown>> };
  const names = new Set<string>();
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const match of path.matchAll(/\{([^}]+)\}/g)) if (SLUG_PARAMETERS.test(match[1]!)) names.add(match[1]!);
    void item;
  }
  return [...names];
}

function configToml(slug: string, parameters: string[]): string {
  const lines = [
    "# Written by tests/fuzz/schemathesis.ts for one run.",
    "[dictionaries.workspace-slug]",
    `values = [${JSON.stringify(slug)}]`,
    "",
    "[parameters]",
  ];
  for (const name of parameters) {
    lines.push(`${JSON.stringify(`path.${name}`)} = { dictionary = "workspace-slug", probability = ${SLUG_PROBABILITY} }`);
  }
  return `${lines.join("\n")}\n`;
}

// ---------------------------------------------------------------- JUnit report

interface Counts {
  passed: string[];
  failed: string[];
  skipped: string[];
}

function countOperations(xml: string): Counts {
  const counts: Counts = { passed: [], failed: [], skipped: [] };
  const testcase = /<testcase\b([^>]*?)(\/>|>([\s\S]*?)<\/testcase>)/g;
  for (const match of xml.matchAll(testcase)) {
    const name = unescapeXml(/\bname="([^"]*)"/.exec(match[1]!)?.[1] ?? "?");
    const body = match[3] ?? "";
    if (/<(failure|error)\b/.test(body)) counts.failed.push(name);
    else if (/<skipped\b/.test(body)) counts.skipped.push(name);
    else counts.passed.push(name);
  }
  return counts;
}

function unescapeXml(text: string): string {
  return text
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&quot;", '"')
    .replaceAll("&apos;", "'")
    .replaceAll("&amp;", "&");
}

// ---------------------------------------------------------------- run

async function main(): Promise<{ code: number; counts: Counts | null }> {
  const { cli, version } = await ensureSchemathesis();
  const workDir = await mkdtemp(join(tmpdir(), "wks-fuzz-"));
  const reportDir = settings.reportDir ?? join(workDir, "report");
  await mkdir(reportDir, { recursive: true });
  const junitPath = join(reportDir, "junit.xml");
  let server: AppServer | null = null;
  try {
    server = await startAppServer({ name: "server" });
    const workspace = await bootstrapWorkspace(server.origin, SLUG);
    const parameters = await slugParameters(server.origin);
    const configPath = join(workDir, "schemathesis.toml");
    await Bun.write(configPath, configToml(workspace.slug, parameters));

    const args = [
      "--config-file",
      configPath,
      "run",
      `${server.origin}/api/v1/openapi.json`,
      "--header",
      `x-api-key: ${workspace.apiKey}`,
      "--checks",
      settings.checks,
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
      "--output-sanitize",
      "false",
    ];
    if (settings.phases) args.push("--phases", settings.phases);
    if (!process.stdout.isTTY) args.push("--no-color");

    console.log(
      `Schemathesis ${version} against ${server.origin}/api/v1/openapi.json: ` +
        `checks ${settings.checks}, ${settings.maxExamples} examples per operation, seed ${settings.seed}, ` +
        `workspace ${workspace.slug} for path parameter(s) ${parameters.join(", ") || "(none found)"}\n`,
    );
    const st = spawnChild("schemathesis", [...cli, ...args], {
      cwd: workDir,
      env: { PYTHONUNBUFFERED: "1" },
      echo: "raw",
    });
    const timedOut = await Promise.race([
      st.exited.then(() => false),
      Bun.sleep(settings.timeoutSeconds * 1000).then(() => true),
    ]);
    if (timedOut) {
      console.error(`\nfuzz: Schemathesis exceeded FUZZ_TIMEOUT=${settings.timeoutSeconds}s: stopping it`);
      await st.stop(5000);
    }
    const code = await st.exited;

    const junit = Bun.file(junitPath);
    const counts = (await junit.exists()) ? countOperations(await junit.text()) : null;
    if (counts && counts.skipped.length > 0) {
      console.log(`fuzz: ${counts.skipped.length} operations skipped: ${counts.skipped.join("; ")}`);
    }
    if (counts && counts.failed.length > 0) console.log(`fuzz: failing operations: ${counts.failed.join("; ")}`);
    const hasFailures = timedOut || code !== 0 || counts === null || counts.failed.length > 0;
    if (counts === null) console.error(`fuzz: Schemathesis wrote no JUnit report at ${junitPath}`);
    if (hasFailures) {
      // 5xx responses come with a stack trace in the server's log.
      console.error(`\n--- last server output ---\n${server.child.tail(60)}\n---`);
    }
    return { code: hasFailures ? code || 1 : 0, counts };
  } finally {
    await server?.stop();
    if (!settings.reportDir) await rm(workDir, { recursive: true, force: true });
    else await rm(join(workDir, "schemathesis.toml"), { force: true });
  }
}

let exitCode = 1;
let counts: Counts | null = null;
const onSignal = async (signal: string) => {
  console.error(`\n${signal}: stopping the server and Schemathesis...`);
  await stopAllChildren();
  console.log("fuzz: 0 passed, 0 failed");
  process.exit(130);
};
process.on("SIGINT", () => void onSignal("SIGINT"));
process.on("SIGTERM", () => void onSignal("SIGTERM"));

try {
  ({ code: exitCode, counts } = await main());
} catch (error) {
  console.error(`fuzz: cannot run: ${(error as Error).message}`);
  exitCode = 1;
} finally {
  await stopAllChildren();
}
console.log(`fuzz: ${counts?.passed.length ?? 0} passed, ${counts?.failed.length ?? 0} failed`);
process.exit(exitCode);
