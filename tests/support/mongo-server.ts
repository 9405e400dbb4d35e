/**
 * Starts throwaway MongoDB-wire-compatible servers for tests and benchmarks: FerretDB v1 on its
 * SQLite backend, one fresh temporary directory per server, listening on a free port of 127.0.0.1.
 *
 * The binary: `TEST_FERRETDB_BIN` when set; else the cached build at
 * `$XDG_CACHE_HOME/wks-service/ferretdb-v1.24.0/ferretdb` (`~/.cache/...` without XDG); else it is
 * built there with `go` (once, ~1.5 minutes from a clean Go cache). `go install ...@v1.24.0` cannot
 * be used: the module proxy refuses the module's version list, which `go install pkg@version`
 * reads. So the build requires the module from a throwaway module, copies its source (FerretDB
 * panics at start without `build/version/version.txt`, which its releases generate and the module
 * lacks, and files in the module cache may not be changed or overlaid), writes that file, and
 * builds the copy. Two processes building at once each build in their own directory and rename
 * the result into place atomically. Without `go` it fails saying what to install.
 */
import { runCommand as run } from "./command.ts";
import { findGo, goBinary, goCachePath, installExecutable } from "./go-binary.ts";
import { readLog, sharedService, startWatchdog, stopPidShell, uniqueDatabaseName } from "./service-lifetime.ts";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MongoClient } from "mongodb";
import { onFreePort } from "./net.ts";

export interface MongoServer {
  /** `mongodb://127.0.0.1:<port>/test` */
  url: string;
  stop(): Promise<void>;
}

const FERRETDB_MODULE = "github.com/FerretDB/FerretDB";
const FERRETDB_VERSION = "v1.24.0";
const START_TIMEOUT_MS = 30_000;

// ---- the binary ----

/** Where the built binary is kept between runs. */
export function ferretdbCachePath(): string {
  return goCachePath(`ferretdb-${FERRETDB_VERSION}`, "ferretdb");
}

/** The ferretdb binary: from TEST_FERRETDB_BIN, the cache, or built into the cache now. */
export function ferretdbBinary(): Promise<string> {
  return goBinary("FerretDB", "TEST_FERRETDB_BIN", ferretdbCachePath(), buildFerretdb);
}

async function buildFerretdb(target: string): Promise<string> {
  const go = findGo();
  if (!go) {
    throw new Error(
      `Cannot start the MongoDB-compatible test server: FerretDB ${FERRETDB_VERSION} is not built yet (expected at ${target}) ` +
        "and `go` was not found on PATH to build it. Install Go 1.22 or later (https://go.dev/dl/; Debian/Ubuntu: `apt-get install golang`), " +
        "or set TEST_FERRETDB_BIN to a ferretdb binary, or TEST_MONGO_URL to a MongoDB-compatible server the tests may create databases on.",
    );
  }
  const started = Date.now();
  process.stderr.write(`Building FerretDB ${FERRETDB_VERSION} into ${target} (first run only, about 1-2 minutes)...\n`);
  const dir = mkdtempSync(join(tmpdir(), "wks-mongo-ferretdb-build-"));
  // GOWORK=off: no go.work of an enclosing directory; -mod=mod: go.sum is written as modules arrive.
  const env = { GOWORK: "off", GOFLAGS: `${process.env.GOFLAGS ?? ""} -mod=mod`.trim() };
  try {
    writeFileSync(join(dir, "go.mod"), `module ferretbuild\n\ngo 1.22\n\nrequire ${FERRETDB_MODULE} ${FERRETDB_VERSION}\n`);
    writeFileSync(join(dir, "tools.go"), `//go:build tools\n\npackage tools\n\nimport _ "${FERRETDB_MODULE}/cmd/ferretdb"\n`);
    const info = JSON.parse(await run([go, "mod", "download", "-json", FERRETDB_MODULE], { cwd: dir, env })) as {
      Dir?: string;
      Error?: string;
    };
    if (!info.Dir) throw new Error(`Cannot build FerretDB: go mod download gave no module directory${info.Error ? `: ${info.Error}` : ""}`);
    const src = join(dir, "src");
    cpSync(info.Dir, src, { recursive: true });
    await run(["chmod", "-R", "u+w", src]);
    writeFileSync(join(src, "build", "version", "version.txt"), FERRETDB_VERSION);
    writeFileSync(join(dir, "go.mod"), `${readFileSync(join(dir, "go.mod"), "utf8")}\nreplace ${FERRETDB_MODULE} => ./src\n`);
    const built = join(dir, "ferretdb");
    await run([go, "build", "-o", built, `${FERRETDB_MODULE}/cmd/ferretdb`], { cwd: dir, env });
    await run([built, "--version"]);
    installExecutable(built, target);
    process.stderr.write(`Built FerretDB ${FERRETDB_VERSION} in ${Math.round((Date.now() - started) / 1000)} s\n`);
    return target;
  } finally {
    await run(["chmod", "-R", "u+w", dir]).catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---- the server ----

/** Starts a new, empty server. Stop it with `stop()`. */
export async function startMongo(): Promise<MongoServer> {
  const bin = await ferretdbBinary();
  const dir = mkdtempSync(join(tmpdir(), "wks-mongo-ferretdb-"));
  try {
    return await onFreePort((port) => launch(bin, dir, port));
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}

async function launch(bin: string, dir: string, port: number): Promise<MongoServer> {
  const log = join(dir, `server-${port}.log`);
  const proc = Bun.spawn(
    [
      bin,
      "--handler=sqlite",
      `--sqlite-url=file:${dir}/`,
      `--listen-addr=127.0.0.1:${port}`,
      `--state-dir=${dir}`,
      // No metrics/debug listener: its fixed default port would collide between servers.
      "--debug-addr=-",
      "--telemetry=disable",
      "--log-level=warn",
    ],
    { cwd: dir, stdin: "ignore", stdout: Bun.file(log), stderr: Bun.file(log) },
  );
  proc.unref();
  const watchdog = startWatchdog(dir, `pid=${proc.pid}\n    ${stopPidShell("TERM", 50)}`);

  const url = `mongodb://127.0.0.1:${port}/test`;
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (proc.exitCode !== null || proc.signalCode !== null) {
      watchdog.kill();
      throw new Error(`Cannot start FerretDB on port ${port}: the server exited\n${readLog(log)}`);
    }
    const client = new MongoClient(url, { serverSelectionTimeoutMS: 1_000, connectTimeoutMS: 1_000 });
    try {
      await client.db("admin").command({ ping: 1 });
      await client.close();
      break;
    } catch (e) {
      await client.close().catch(() => {});
      if (Date.now() > deadline) {
        proc.kill("SIGKILL");
        watchdog.kill();
        throw new Error(`Cannot start FerretDB on port ${port}: not answering after ${START_TIMEOUT_MS} ms: ${String(e)}\n${readLog(log)}`);
      }
      await Bun.sleep(50);
    }
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

// ---- one server per process ----

/**
 * The URL of this process's shared server: `TEST_MONGO_URL` when set, otherwise a server started
 * on the first call and stopped when the process exits.
 */
export const sharedMongo = sharedService("TEST_MONGO_URL", startMongo);

/**
 * The URL of a new, uniquely named database on the server of `baseUrl` (the path replaced, the
 * options kept). MongoDB creates a database on its first write, so nothing is sent.
 */
export function freshMongoDatabase(baseUrl: string): string {
  const name = uniqueDatabaseName();
  const m = /^(mongodb(?:\+srv)?:\/\/[^/?]*)(?:\/[^?]*)?(\?.*)?$/.exec(baseUrl);
  if (!m) throw new Error(`Invalid MongoDB URL: ${baseUrl}`);
  return `${m[1]}/${name}${m[2] ?? ""}`;
}
