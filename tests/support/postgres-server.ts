/**
 * Starts throwaway PostgreSQL servers for tests and benchmarks.
 *
 * Finds `initdb` and `postgres` under /usr/lib/postgresql/<version>/bin (highest version first)
 * or on PATH; when they are missing and this process is root on Debian, installs the `postgresql`
 * package with apt-get; otherwise fails saying what to install. Each server lives in a fresh
 * temporary directory (data and socket), listens on a free port of 127.0.0.1, trusts local
 * connections, and runs with fsync and synchronous commit off: fast, and disposable.
 * As root, the server runs as the `postgres` system user, since PostgreSQL refuses to run as root.
 */
import { findOrAptInstall } from "./apt.ts";
import { runCommand as run } from "./command.ts";
import { readLog, sharedService, startWatchdog, stopPidShell, uniqueDatabaseName } from "./service-lifetime.ts";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";

export interface PostgresServer {
  /** `postgres://postgres@127.0.0.1:<port>/test` */
  url: string;
  stop(): Promise<void>;
  /**
   * `kill -9` of the postmaster and every one of its children at once, as a crash of the machine's
   * PostgreSQL would leave it: no shutdown, clients' sockets reset. Resolves once all are gone.
   */
  crash(): Promise<void>;
  /**
   * Starts the server again on the same data directory and port (after `crash()`: with crash
   * recovery) and resolves once it accepts connections, with the time that took.
   */
  restart(): Promise<{ ms: number }>;
}

interface Binaries {
  initdb: string;
  postgres: string;
}

const RUN_AS = "postgres";
const START_TIMEOUT_MS = 30_000;

// ---- finding (or installing) the binaries ----

function findBinaries(): Binaries | null {
  const root = "/usr/lib/postgresql";
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((v) => /^\d+(\.\d+)?$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
    for (const v of versions) {
      const bin = join(root, v, "bin");
      if (existsSync(join(bin, "initdb")) && existsSync(join(bin, "postgres"))) {
        return { initdb: join(bin, "initdb"), postgres: join(bin, "postgres") };
      }
    }
  }
  const initdb = Bun.which("initdb");
  const server = Bun.which("postgres");
  return initdb && server ? { initdb, postgres: server } : null;
}

const isRoot = () => typeof process.getuid === "function" && process.getuid() === 0;

const binaries = findOrAptInstall(
  findBinaries,
  "postgresql",
  "Cannot start PostgreSQL: initdb and postgres were not found under /usr/lib/postgresql/*/bin or on PATH. " +
    "Install the PostgreSQL server (Debian/Ubuntu: `apt-get install postgresql`; macOS: `brew install postgresql`), " +
    "or set TEST_DATABASE_URL to a server the tests may create databases on.",
);

// ---- running as a non-root user when root ----

async function ensureRunUser(): Promise<void> {
  try {
    await run(["id", "-u", RUN_AS]);
  } catch {
    await run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", RUN_AS]);
  }
}

/** The command line, run as the `postgres` user when this process is root. */
function asServerUser(cmd: string[]): string[] {
  return isRoot() ? ["runuser", "-u", RUN_AS, "--", ...cmd] : cmd;
}

// ---- ports ----

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      const port = typeof addr === "object" && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

// ---- the server ----

export interface PostgresOptions {
  /** Extra server settings (`-c name=value`), e.g. `shared_preload_libraries: "pg_stat_statements"`. */
  settings?: Record<string, string>;
}

/** Starts a new server with a `test` database. Stop it with `stop()`. */
export async function startPostgres(options: PostgresOptions = {}): Promise<PostgresServer> {
  const bin = await binaries();
  const dir = mkdtempSync(join(tmpdir(), "pg-test-"));
  const data = join(dir, "data");
  try {
    if (isRoot()) {
      await ensureRunUser();
      await run(["chown", RUN_AS, dir]);
    }
    await run(
      asServerUser([bin.initdb, "-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"]),
      { cwd: dir },
    );
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }

  // A port found free may be taken by the time the server binds it: try a few.
  let lastError: unknown;
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = await freePort();
    try {
      return await launch(bin, dir, data, port, options.settings ?? {});
    } catch (e) {
      lastError = e;
    }
  }
  rmSync(dir, { recursive: true, force: true });
  throw lastError;
}

function spawnServer(bin: Binaries, dir: string, data: string, port: number, settings: Record<string, string>): Bun.Subprocess {
  const log = join(dir, `server-${port}.log`);
  const proc = Bun.spawn(
    asServerUser([
      bin.postgres,
      "-D",
      data,
      "-p",
      String(port),
      "-h",
      "127.0.0.1",
      "-k",
      dir,
      "-c",
      "fsync=off",
      "-c",
      "synchronous_commit=off",
      "-c",
      "full_page_writes=off",
      "-c",
      "max_connections=300",
      "-c",
      "shared_buffers=64MB",
      ...Object.entries(settings).flatMap(([name, value]) => ["-c", `${name}=${value}`]),
    ]),
    { cwd: dir, stdin: "ignore", stdout: Bun.file(log), stderr: Bun.file(log) },
  );
  proc.unref();
  return proc;
}

/** Waits until the server answers `select 1` on its `postgres` database; throws if it exits or the deadline passes. */
async function waitAccepting(proc: Bun.Subprocess, port: number, log: string, after?: (sql: postgres.Sql) => Promise<void>): Promise<void> {
  const admin = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (proc.exitCode !== null || proc.signalCode !== null) {
      throw new Error(`Cannot start PostgreSQL on port ${port}: the server exited\n${readLog(log)}`);
    }
    const sql = postgres(admin, { max: 1, connect_timeout: 2, onnotice: () => {} });
    try {
      await sql`select 1`;
      await after?.(sql);
      await sql.end({ timeout: 1 });
      return;
    } catch (e) {
      await sql.end({ timeout: 0 }).catch(() => {});
      if (Date.now() > deadline) {
        throw new Error(
          `Cannot start PostgreSQL on port ${port}: not accepting connections after ${START_TIMEOUT_MS} ms: ${String(e)}\n${readLog(log)}`,
        );
      }
      await Bun.sleep(20);
    }
  }
}

async function launch(bin: Binaries, dir: string, data: string, port: number, settings: Record<string, string>): Promise<PostgresServer> {
  const log = join(dir, `server-${port}.log`);
  let proc = spawnServer(bin, dir, data, port, settings);
  const watchdog = startWatchdog(dir, `pid=$(head -n 1 '${data}/postmaster.pid' 2>/dev/null)\n    ${stopPidShell("INT", 100, "QUIT")}`);
  try {
    await waitAccepting(proc, port, log, async (sql) => void (await sql.unsafe("create database test")));
  } catch (e) {
    signalServer(data, proc.pid, "SIGQUIT");
    watchdog.kill();
    throw e;
  }

  let stopped = false;
  const exited = () => proc.exitCode !== null || proc.signalCode !== null;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/test`,
    async stop() {
      if (stopped) return;
      stopped = true;
      // Fast shutdown: roll back open transactions, disconnect clients, exit.
      signalServer(data, proc.pid, "SIGINT");
      const until = Date.now() + 10_000;
      while (!exited() && Date.now() < until) await Bun.sleep(20);
      if (!exited()) signalServer(data, proc.pid, "SIGQUIT");
      watchdog.kill();
      rmSync(dir, { recursive: true, force: true });
    },
    async crash() {
      const postmaster = postmasterPid(data);
      if (postmaster === null) throw new Error(`Cannot crash PostgreSQL on port ${port}: no postmaster.pid`);
      const all = [postmaster, ...childrenOf(postmaster)];
      for (const pid of all) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          // Already gone.
        }
      }
      const until = Date.now() + 10_000;
      while (all.some(alive) && Date.now() < until) await Bun.sleep(10);
      if (all.some(alive)) {
        throw new Error(`Cannot crash PostgreSQL on port ${port}: processes ${all.filter(alive).join(", ")} survived SIGKILL`);
      }
      while (!exited() && Date.now() < until) await Bun.sleep(10); // runuser, when root
    },
    async restart() {
      if (stopped) throw new Error(`Cannot restart PostgreSQL on port ${port}: it was stopped`);
      const started = performance.now();
      proc = spawnServer(bin, dir, data, port, settings);
      await waitAccepting(proc, port, log);
      return { ms: Math.round(performance.now() - started) };
    },
  };
}

/** The pids whose parent is `pid` (Linux: from /proc). */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // `pid (comm) state ppid ...`: comm may hold spaces and parentheses, so read after the last `)`.
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === pid) children.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return children;
}

/** Whether `pid` still runs (a zombie, dead but not yet reaped, does not). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

/** The postmaster's pid from its pid file (the spawned process may be `runuser`, its parent). */
function postmasterPid(data: string): number | null {
  try {
    const first = readFileSync(join(data, "postmaster.pid"), "utf8").split("\n")[0];
    const pid = Number(first);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

function signalServer(data: string, spawnedPid: number, signal: NodeJS.Signals): void {
  const pid = postmasterPid(data) ?? spawnedPid;
  try {
    process.kill(pid, signal);
  } catch {
    // Already gone.
  }
}

// ---- one server per process ----

/**
 * The URL of this process's shared server: `TEST_DATABASE_URL` when set, otherwise a server
 * started on the first call and stopped when the process exits.
 */
export const sharedPostgres = sharedService("TEST_DATABASE_URL", startPostgres);

/** Creates a new, uniquely named database on the server of `baseUrl` and returns its URL. */
export async function freshDatabase(baseUrl: string): Promise<string> {
  const name = uniqueDatabaseName();
  const sql = postgres(baseUrl, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(`create database "${name}"`);
  } finally {
    await sql.end({ timeout: 1 });
  }
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
