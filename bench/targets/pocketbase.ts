/**
 * PocketBase (https://pocketbase.io), the product the collections benchmark compares with: its
 * `examples/base` server on loopback, on a fresh data directory, with a superuser, a base
 * collection `deals` equivalent to ours (bench/datasets/deals.ts), seeded with the same N records
 * through its HTTP API.
 *
 * The binary: BENCH_POCKETBASE_BIN when set; else the cached build at
 * `$XDG_CACHE_HOME/wks-service/pocketbase-<version>/base` (`~/.cache/...` without XDG); else it is
 * built there with Go, once (about 50 s from a clean Go cache; CGO off: PocketBase's SQLite is
 * modernc.org/sqlite, pure Go):
 *
 *   GOBIN=<tmp> go install -ldflags=-X\ github.com/pocketbase/pocketbase.Version=<version> \
 *     github.com/pocketbase/pocketbase/examples/base@<version>
 *
 * and, should the module proxy refuse that (it reads the module's version list, which the proxy
 * refuses for some modules: tests/support/mongo-server.ts), a throwaway module that requires the
 * version and `go build`s `examples/base`. The version is pinned (POCKETBASE_VERSION, or
 * BENCH_POCKETBASE_VERSION): `@latest` resolves to v0.40.4 here, whose go.mod requires Go 1.27,
 * while the machine's Go is 1.26 with GOTOOLCHAIN=local; v0.36.8 is the newest release that
 * builds with it. The result is copied next to the target and renamed into place (atomic).
 *
 * The server: `base superuser upsert` then `base serve --http 127.0.0.1:<port> --dir <tmp>/pb_data`
 * in a `pbbench-data-` temp dir (no dev mode, no automigrate: see `pocketbaseFlags`), a watchdog
 * stopping it (and removing the dir) should this process die.
 * Request logs (PocketBase writes every request to its logs database by default) are turned off,
 * `logs.maxDays = 0`, as our server runs at LOG_LEVEL=warn during the load: BENCH_POCKETBASE_LOGS=1
 * keeps PocketBase's default (5 days).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BenchContext, Resource } from "../scenario.ts";
import { runCommand } from "../../tests/support/command.ts";
import { type Child, spawnChild } from "../../tests/support/child-process.ts";
import { freePort } from "../../tests/support/net.ts";
import { startWatchdog, stopPidShell } from "../../tests/support/service-lifetime.ts";
import { dealAt, dealStats, deepOffset, FILTER, STAGES } from "../datasets/deals.ts";
import { seedOverHttp } from "../datasets/seed-http.ts";
import { countLabel } from "../datasets/topics.ts";
import { findGo, goBinary, goCachePath, installExecutable } from "../../tests/support/go-binary.ts";
import { positiveInt } from "./topics.ts";

export const POCKETBASE_MODULE = "github.com/pocketbase/pocketbase";
/** The newest release whose go.mod the local Go (1.26, GOTOOLCHAIN=local) accepts; see above. */
export const POCKETBASE_DEFAULT_VERSION = "v0.36.8";
export const POCKETBASE_VERSION = process.env.BENCH_POCKETBASE_VERSION || POCKETBASE_DEFAULT_VERSION;
const START_TIMEOUT_MS = 30_000;

/** The name of PocketBase's collection. */
export const DEALS = "deals";

// ---- the binary ----

/** Where the built binary is kept between runs. */
export function pocketbaseCachePath(version = POCKETBASE_VERSION): string {
  return goCachePath(`pocketbase-${version}`, "base");
}

/** The PocketBase binary: from BENCH_POCKETBASE_BIN, the cache, or built into the cache now. */
export function pocketbaseBinary(): Promise<string> {
  return goBinary("PocketBase", "BENCH_POCKETBASE_BIN", pocketbaseCachePath(), buildPocketbase);
}

async function buildPocketbase(target: string): Promise<string> {
  const go = findGo();
  if (!go) {
    throw new Error(
      `Cannot start PocketBase: ${POCKETBASE_VERSION} is not built yet (expected at ${target}) and \`go\` was not found on PATH ` +
        "to build it. Install Go 1.25 or later (https://go.dev/dl/), or set BENCH_POCKETBASE_BIN to a PocketBase binary " +
        "(a release from https://github.com/pocketbase/pocketbase/releases works: `pocketbase serve` is the same server).",
    );
  }
  const started = Date.now();
  const pkg = `${POCKETBASE_MODULE}/examples/base`;
  console.log(
    `  Building PocketBase ${POCKETBASE_VERSION} into ${target} (go install ${pkg}@${POCKETBASE_VERSION}; first run only, about a minute)...`,
  );
  const dir = mkdtempSync(join(tmpdir(), "pbbench-build-"));
  // GOWORK=off: no go.work of an enclosing directory. CGO off: modernc.org/sqlite is pure Go.
  const env = { GOWORK: "off", CGO_ENABLED: "0" };
  // examples/base leaves the version "(untracked)"; PocketBase's release builds set it so.
  const ldflags = `-ldflags=-X ${POCKETBASE_MODULE}.Version=${POCKETBASE_VERSION.replace(/^v/, "")}`;
  try {
    const bin = join(dir, "bin");
    let built = join(bin, "base");
    try {
      await runCommand([go, "install", ldflags, `${pkg}@${POCKETBASE_VERSION}`], { cwd: dir, env: { ...env, GOBIN: bin } });
    } catch (installError) {
      // The proxy refusing the module's version list (or `go install pkg@version` refusing the
      // module for another reason): build from a throwaway module that requires the version.
      console.log(
        `  go install failed (${(installError as Error).message.split("\n").slice(-1)[0]}); building from a throwaway module instead...`,
      );
      const mod = join(dir, "mod");
      mkdirSync(mod);
      writeFileSync(join(mod, "go.mod"), `module pbbenchbuild\n\ngo 1.25\n`);
      const modEnv = { ...env, GOFLAGS: `${process.env.GOFLAGS ?? ""} -mod=mod`.trim() };
      await runCommand([go, "get", `${POCKETBASE_MODULE}@${POCKETBASE_VERSION}`], { cwd: mod, env: modEnv });
      built = join(mod, "base");
      await runCommand([go, "build", ldflags, "-o", built, pkg], { cwd: mod, env: modEnv });
    }
    const version = (await runCommand([built, "--version"])).trim();
    installExecutable(built, target);
    console.log(`  Built PocketBase (${version}) in ${Math.round((Date.now() - started) / 1000)} s`);
    return target;
  } finally {
    // The module cache is read-only; what go wrote into the temp dir is not, but be sure.
    await runCommand(["chmod", "-R", "u+w", dir]).catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---- the server ----

export interface PocketbaseServer {
  origin: string;
  /** A superuser's auth token: the `Authorization` header of every request. */
  token: string;
  version: string;
}

/**
 * A fresh PocketBase on loopback with a superuser, authenticated, request logs off (see the top),
 * and the `deals` collection created. Stopped (and its directory removed) by `stop()`.
 */
export async function startPocketbase(): Promise<Resource<PocketbaseServer>> {
  const bin = await pocketbaseBinary();
  // "base version 0.36.8"
  const printed = (await runCommand([bin, "--version"])).trim();
  const version = /version\s+(\S+)/.exec(printed)?.[1] ?? printed;
  const root = mkdtempSync(join(tmpdir(), "pbbench-data-"));
  const flags = pocketbaseFlags(root);
  const email = "bench@pbbench.example.com";
  const password = crypto.randomUUID();
  try {
    await runCommand([bin, "superuser", "upsert", email, password, ...flags], { cwd: root });
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    throw error;
  }
  // A port found free may be taken by the time the server binds it: try a few.
  let lastError: unknown;
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = freePort();
    const child = spawnChild("pocketbase", [bin, "serve", "--http", `127.0.0.1:${port}`, ...flags], { cwd: root });
    const watchdog = startWatchdog(root, `pid=${child.pid}\n    ${stopPidShell("TERM", 50)}`);
    const origin = `http://127.0.0.1:${port}`;
    let stopped = false;
    const stop = async () => {
      if (stopped) return;
      stopped = true;
      await child.stop();
      watchdog.kill();
      rmSync(root, { recursive: true, force: true });
    };
    try {
      await waitForHealth(origin, child);
    } catch (error) {
      lastError = error;
      await child.stop();
      watchdog.kill();
      continue;
    }
    try {
      const token = await authenticate(origin, email, password);
      if (process.env.BENCH_POCKETBASE_LOGS !== "1") await pb(origin, token, "PATCH", "/api/settings", { logs: { maxDays: 0 } });
      await createDealsCollection(origin, token);
      return { value: { origin, token, version }, stop };
    } catch (error) {
      await stop();
      throw new Error(`${(error as Error).message}\n--- pocketbase output ---\n${child.tail()}`);
    }
  }
  rmSync(root, { recursive: true, force: true });
  throw lastError;
}

/**
 * Every directory PocketBase uses inside `root` (by default pb_migrations, pb_hooks and pb_public
 * are siblings of the data dir, or next to the binary), and no dev mode: PocketBase turns it on when
 * its binary is under the temp dir or the user cache dir (it takes it for `go run`), and dev mode
 * prints every SQL statement. No automigrate: it writes a JS migration file for every collection
 * change made through the API.
 */
function pocketbaseFlags(root: string): string[] {
  return [
    "--dir",
    join(root, "pb_data"),
    "--dev=false",
    "--automigrate=false",
    "--hooksWatch=false",
    "--migrationsDir",
    join(root, "pb_migrations"),
    "--hooksDir",
    join(root, "pb_hooks"),
    "--publicDir",
    join(root, "pb_public"),
  ];
}

async function waitForHealth(origin: string, child: Child): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  let exited: number | null = null;
  void child.exited.then((code) => (exited = code));
  let last = "no answer";
  while (Date.now() < deadline) {
    if (exited !== null) throw new Error(`Cannot start PocketBase on ${origin}: it exited with code ${exited}\n${child.tail()}`);
    try {
      const response = await fetch(`${origin}/api/health`, { signal: AbortSignal.timeout(2_000) });
      await response.arrayBuffer();
      if (response.status === 200) return;
      last = `status ${response.status}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await Bun.sleep(100);
  }
  throw new Error(
    `Cannot start PocketBase on ${origin}: /api/health not answering 200 after ${START_TIMEOUT_MS} ms (${last})\n${child.tail()}`,
  );
}

/** One JSON request to PocketBase; the parsed body of a 2xx answer, else an error saying what it answered. */
async function pb<T = unknown>(origin: string, token: string | null, method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = token;
  if (body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(`${origin}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(60_000),
  });
  const text = await response.text();
  if (response.status < 200 || response.status > 299) {
    throw new Error(`PocketBase: ${method} ${path} answered ${response.status}: ${text.slice(0, 800)}`);
  }
  return (text === "" ? null : JSON.parse(text)) as T;
}

async function authenticate(origin: string, identity: string, password: string): Promise<string> {
  const auth = await pb<{ token?: string }>(origin, null, "POST", "/api/collections/_superusers/auth-with-password", {
    identity,
    password,
  });
  if (!auth?.token) throw new Error("PocketBase: auth-with-password answered no token");
  return auth.token;
}

/**
 * The base collection `deals`, equivalent to our "Deals" pipeline collection: company (text,
 * required, ≤ 200), amount (number ≥ 0), owner (text), close_date (date), status (a select of the
 * six stages), created/updated (autodate: PocketBase's API adds no timestamp field by itself), and
 * the indexes our PostgreSQL tables have for the same reads: the list in creation order
 * (`created`), and a status's records in that order (`status, created`, like our
 * (workspace, collection, status, id)). The API rules stay null: superusers only.
 */
async function createDealsCollection(origin: string, token: string): Promise<void> {
  await pb(origin, token, "POST", "/api/collections", {
    name: DEALS,
    type: "base",
    fields: [
      { name: "company", type: "text", required: true, max: 200 },
      { name: "amount", type: "number", min: 0 },
      { name: "owner", type: "text" },
      { name: "close_date", type: "date" },
      { name: "status", type: "select", values: [...STAGES], maxSelect: 1 },
      { name: "created", type: "autodate", onCreate: true, onUpdate: false },
      { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
    ],
    indexes: [
      `CREATE INDEX idx_${DEALS}_status_created ON ${DEALS} (status, created)`,
      `CREATE INDEX idx_${DEALS}_created ON ${DEALS} (created)`,
    ],
  });
}

// ---- the seeded collection ----

/** Records seeded into PocketBase: BENCH_RECORDS, the same N as ours on PostgreSQL. */
export function pocketbaseRecordCount(): number {
  return positiveInt("BENCH_RECORDS", 100_000);
}

/** "(PocketBase v0.36.8, 100k records)": the suffix of the PocketBase scenario names. */
export function pocketbaseLabel(): string {
  return `(PocketBase ${POCKETBASE_VERSION}, ${countLabel(pocketbaseRecordCount())} records)`;
}

export interface PocketbaseDeals extends PocketbaseServer {
  count: number;
  /** `/api/collections/deals/records` */
  recordsPath: string;
  /** The page of 50 starting at `deepOffset(count)` (page 1801 at 100k). */
  deepPage: number;
}

/** PocketBase started once per run, its `deals` collection seeded with BENCH_RECORDS records. */
export function pocketbaseDeals(ctx: BenchContext): Promise<PocketbaseDeals> {
  return ctx.use("pocketbase:deals", async () => {
    const count = pocketbaseRecordCount();
    const server = await startPocketbase();
    const { origin, token, version } = server.value;
    console.log(`  PocketBase ${version} on ${origin}`);
    const recordsPath = `/api/collections/${DEALS}/records`;
    try {
      await seedOverHttp({
        label: "PocketBase",
        count,
        request: (i) => {
          const deal = dealAt(i);
          return {
            url: `${origin}${recordsPath}`,
            init: { method: "POST", headers: { authorization: token, "content-type": "application/json" }, body: JSON.stringify(deal) },
          };
        },
      });
      await checkPocketbaseCounts(origin, token, recordsPath, count);
    } catch (error) {
      await server.stop();
      throw error;
    }
    return { value: { origin, token, version, count, recordsPath, deepPage: deepOffset(count) / 50 + 1 }, stop: server.stop };
  });
}

/** PocketBase's filter of the filtered scenario: status = qualified and amount ≥ 5,000. */
export const POCKETBASE_FILTER = `(status='${FILTER.status}' && amount>=${FILTER.minAmount})`;

/** Totals outside the load: every record there, and the filter's count as generated (a difference is a WARNING). */
async function checkPocketbaseCounts(origin: string, token: string, recordsPath: string, count: number): Promise<void> {
  const stats = dealStats(count);
  const checks: [string, number][] = [
    [`${recordsPath}?perPage=1`, count],
    [`${recordsPath}?perPage=1&filter=${encodeURIComponent(POCKETBASE_FILTER)}`, stats.filtered],
  ];
  for (const [path, expected] of checks) {
    const { totalItems } = await pb<{ totalItems: number }>(origin, token, "GET", path);
    const verdict = totalItems === expected ? "as generated" : `WARNING: the dataset has ${expected}`;
    console.log(`  PocketBase: GET ${decodeURIComponent(path)} -> totalItems ${totalItems} (${verdict})`);
  }
}
