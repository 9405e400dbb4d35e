/**
 * Starts stripe-mock (github.com/stripe/stripe-mock: Stripe's API from its OpenAPI spec, answering
 * with fixtures) for tests, one per test file, on a free port of 127.0.0.1.
 *
 * The binary: `TEST_STRIPE_MOCK_BIN` when set; else the cached build at
 * `$XDG_CACHE_HOME/wks-service/stripe-mock-<version>/stripe-mock` (`~/.cache/...` without XDG);
 * else built there with `go install github.com/stripe/stripe-mock@<version>` (once, under a
 * minute from a clean Go cache). The version is pinned (the latest when written) so the cache
 * names what it holds; raise it to follow Stripe's API. Without `go` it fails saying what to install.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCommand as run } from "./command.ts";
import { findGo, goBinary, goCachePath, installExecutable } from "./go-binary.ts";
import { onFreePort } from "./net.ts";
import { readLog, startWatchdog, stopPidShell } from "./service-lifetime.ts";

const STRIPE_MOCK_MODULE = "github.com/stripe/stripe-mock";
export const STRIPE_MOCK_VERSION = "v0.203.0";
const START_TIMEOUT_MS = 20_000;

export interface StripeMock {
  /** `http://127.0.0.1:<port>`: STRIPE_API_BASE. */
  url: string;
  stop(): Promise<void>;
}

export function stripeMockBinary(): Promise<string> {
  return goBinary("stripe-mock", "TEST_STRIPE_MOCK_BIN", goCachePath(`stripe-mock-${STRIPE_MOCK_VERSION}`, "stripe-mock"), build);
}

async function build(target: string): Promise<string> {
  const go = findGo();
  if (!go) {
    throw new Error(
      `Cannot start stripe-mock: it is not built yet (expected at ${target}) and \`go\` was not found on PATH to build it. ` +
        "Install Go 1.22 or later (https://go.dev/dl/; Debian/Ubuntu: `apt-get install golang`), or set TEST_STRIPE_MOCK_BIN to a stripe-mock binary.",
    );
  }
  const started = Date.now();
  process.stderr.write(`Building stripe-mock ${STRIPE_MOCK_VERSION} into ${target} (first run only)...\n`);
  const dir = mkdtempSync(join(tmpdir(), "wks-stripe-mock-build-"));
  try {
    await run([go, "install", `${STRIPE_MOCK_MODULE}@${STRIPE_MOCK_VERSION}`], { cwd: dir, env: { GOWORK: "off", GOBIN: dir } });
    installExecutable(join(dir, "stripe-mock"), target);
    process.stderr.write(`Built stripe-mock ${STRIPE_MOCK_VERSION} in ${Math.round((Date.now() - started) / 1000)} s\n`);
    return target;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Starts a stripe-mock. Stop it with `stop()`. */
export async function startStripeMock(): Promise<StripeMock> {
  const bin = await stripeMockBinary();
  const dir = mkdtempSync(join(tmpdir(), "wks-stripe-mock-"));
  try {
    return await onFreePort((port) => launch(bin, dir, port));
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}

async function launch(bin: string, dir: string, port: number): Promise<StripeMock> {
  const log = join(dir, `stripe-mock-${port}.log`);
  const proc = Bun.spawn([bin, "-http-addr", `127.0.0.1:${port}`], {
    cwd: dir,
    stdin: "ignore",
    stdout: Bun.file(log),
    stderr: Bun.file(log),
  });
  proc.unref();
  const watchdog = startWatchdog(dir, `pid=${proc.pid}\n    ${stopPidShell("TERM", 20)}`);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (proc.exitCode !== null || proc.signalCode !== null) {
      watchdog.kill();
      throw new Error(`Cannot start stripe-mock on port ${port}: it exited\n${readLog(log)}`);
    }
    try {
      const r = await fetch(`${url}/v1/customers`, {
        headers: { authorization: "Bearer sk_test_123" },
        signal: AbortSignal.timeout(1_000),
      });
      await r.arrayBuffer();
      if (r.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      proc.kill("SIGKILL");
      watchdog.kill();
      throw new Error(`Cannot start stripe-mock on port ${port}: not answering after ${START_TIMEOUT_MS} ms\n${readLog(log)}`);
    }
    await Bun.sleep(50);
  }
  let stopped = false;
  return {
    url,
    async stop() {
      if (stopped) return;
      stopped = true;
      proc.kill("SIGTERM");
      const until = Date.now() + 5_000;
      while (proc.exitCode === null && proc.signalCode === null && Date.now() < until) await Bun.sleep(20);
      if (proc.exitCode === null && proc.signalCode === null) proc.kill("SIGKILL");
      watchdog.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
