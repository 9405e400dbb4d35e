/**
 * Runs the `wrk` load generator and parses the line printed by
 * `wrk-report.lua`.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { aptInstall, canAptInstall } from "../tests/support/apt.ts";
import { spawnChild } from "../tests/support/child-process.ts";

const REPORT_SCRIPT = join(import.meta.dir, "wrk-report.lua");
/** The same, plus a header with a new value on every request (`WrkOptions.uniqueHeader`). */
const UNIQUE_SCRIPT = join(import.meta.dir, "wrk-unique.lua");
/** The same, with the next of several bodies on every request (`WrkOptions.bodies`). */
const BODIES_SCRIPT = join(import.meta.dir, "wrk-bodies.lua");

export interface WrkOptions {
  url: string;
  /** Default GET. */
  method?: string;
  headers?: Record<string, string>;
  /** Sent with every request (through a temp file wrk-report.lua reads). */
  body?: string;
  /** A header whose value wrk makes unique per request: `<run>-<thread>-<n>` (wrk-unique.lua). */
  uniqueHeader?: string;
  /** One body per request, in turn (wrk-bodies.lua); one per line, so none may hold a newline. */
  bodies?: string[];
  durationSeconds: number;
  threads: number;
  connections: number;
  /** Per-request timeout in seconds; slower responses count as errors. */
  timeoutSeconds: number;
}

export interface WrkResult {
  requests: number;
  durationSeconds: number;
  requestsPerSecond: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  errors: { connect: number; read: number; write: number; status: number; timeout: number };
  /** Sum of all error kinds: a non-zero value means the run measured failures. */
  totalErrors: number;
}

/** Makes sure `wrk` is on PATH, installing the Debian package when running as root on Debian. */
export async function ensureWrk(): Promise<string> {
  const found = Bun.which("wrk");
  if (found) return found;
  if (!canAptInstall()) {
    throw new Error(
      "Cannot run the benchmark: wrk is not installed. Install it (Debian/Ubuntu: `apt-get install -y wrk`, " +
        "macOS: `brew install wrk`) and run again.",
    );
  }
  console.log("wrk is missing: installing the Debian package (apt-get install -y wrk)...");
  await aptInstall(["wrk"]);
  const installed = Bun.which("wrk");
  if (!installed) throw new Error("Cannot run the benchmark: wrk is still not on PATH after apt-get install");
  return installed;
}

export async function runWrk(options: WrkOptions): Promise<WrkResult> {
  const cmd = [
    "wrk",
    `-t${options.threads}`,
    `-c${options.connections}`,
    `-d${options.durationSeconds}s`,
    `--timeout`,
    `${options.timeoutSeconds}s`,
    "-s",
    options.bodies ? BODIES_SCRIPT : options.uniqueHeader ? UNIQUE_SCRIPT : REPORT_SCRIPT,
  ];
  for (const [name, value] of Object.entries(options.headers ?? {})) cmd.push("-H", `${name}: ${value}`);
  cmd.push(options.url);
  let bodyDir: string | null = null;
  try {
    const args: string[] = [];
    if (options.bodies) {
      bodyDir = await mkdtemp(join(tmpdir(), "benchctx-wrk-"));
      const file = join(bodyDir, "bodies");
      await writeFile(file, options.bodies.map((b) => b.replaceAll("\n", " ")).join("\n") + "\n");
      args.push(options.method ?? "POST", file);
    } else if (options.method || options.body !== undefined || options.uniqueHeader) {
      let bodyFile = "-";
      if (options.body !== undefined) {
        bodyDir = await mkdtemp(join(tmpdir(), "benchctx-wrk-"));
        bodyFile = join(bodyDir, "body");
        await writeFile(bodyFile, options.body);
      }
      args.push(options.method ?? "GET", bodyFile);
      // A prefix of its own per wrk run: the warm-up's values are never sent again.
      if (options.uniqueHeader) args.push(options.uniqueHeader, `wrk${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`);
    }
    if (args.length > 0) cmd.push("--", ...args);
    const child = spawnChild("wrk", cmd);
    const code = await child.exited;
    const output = child.tail(200);
    if (code !== 0) throw new Error(`wrk exited with code ${code}:\n${output}`);
    return parseWrkOutput(output);
  } finally {
    if (bodyDir) await rm(bodyDir, { recursive: true, force: true });
  }
}

export function parseWrkOutput(output: string): WrkResult {
  const line = output.split("\n").find((candidate) => candidate.startsWith("WRK_RESULT "));
  if (!line) throw new Error(`wrk printed no WRK_RESULT line (is wrk-report.lua loaded?):\n${output}`);
  const raw = JSON.parse(line.slice("WRK_RESULT ".length)) as {
    requests: number;
    duration_us: number;
    p50_us: number;
    p90_us: number;
    p99_us: number;
    max_us: number;
    errors: WrkResult["errors"];
  };
  const durationSeconds = raw.duration_us / 1e6;
  const totalErrors = Object.values(raw.errors).reduce((sum, count) => sum + count, 0);
  return {
    requests: raw.requests,
    durationSeconds,
    requestsPerSecond: durationSeconds > 0 ? raw.requests / durationSeconds : 0,
    p50Ms: raw.p50_us / 1000,
    p90Ms: raw.p90_us / 1000,
    p99Ms: raw.p99_us / 1000,
    maxMs: raw.max_us / 1000,
    errors: raw.errors,
    totalErrors,
  };
}
