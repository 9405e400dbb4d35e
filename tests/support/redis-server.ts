/**
 * Starts throwaway Redis servers for tests.
 *
 * Finds `redis-server` on PATH (or /usr/bin, /usr/local/bin); when it is missing and this process
 * is root on Debian, installs the `redis-server` package with apt-get; otherwise fails saying what
 * to install. Each server lives in a fresh temporary directory (`wks-redis-*`), listens on a free
 * port of 127.0.0.1 and persists nothing (`--save "" --appendonly no`). `restart()` stops the
 * server and starts a new, empty one on the same port, which is what fault tests need: a client
 * sees its connection drop, then the same address answer again.
 */
import { findOrAptInstall } from "./apt.ts";
import { readLog, sharedService, startWatchdog, stopPidShell } from "./service-lifetime.ts";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./net.ts";

export interface RedisServer {
  /** `redis://127.0.0.1:<port>` */
  url: string;
  port: number;
  /** Stops the server and removes its directory. Idempotent. */
  stop(): Promise<void>;
  /** Stops the server if it runs (its data is lost), then starts a new one on the same port. */
  restart(): Promise<void>;
  /** Freezes the server (SIGSTOP): connections stay open but nothing answers, like a hung peer. */
  pause(): void;
  /** Undoes `pause()` (SIGCONT). */
  resume(): void;
}

const START_TIMEOUT_MS = 15_000;

// ---- finding (or installing) the binary ----

function findBinary(): string | null {
  const onPath = Bun.which("redis-server");
  if (onPath) return onPath;
  for (const p of ["/usr/bin/redis-server", "/usr/local/bin/redis-server"]) if (existsSync(p)) return p;
  return null;
}

const binary = findOrAptInstall(
  findBinary,
  "redis-server",
  "Cannot start Redis: redis-server was not found on PATH. " +
    "Install it (Debian/Ubuntu: `apt-get install redis-server`; macOS: `brew install redis`), " +
    "or set TEST_REDIS_URL to a server the tests may use (they write keys under `wks:`).",
);

// ---- readiness ----

/** One raw PING over TCP: true when the server answers `+PONG`. */
function ping(port: number, timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    let reply = "";
    const done = (ok: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.on("connect", () => socket.write("PING\r\n"));
    socket.on("data", (chunk) => {
      reply += chunk.toString();
      if (reply.includes("\r\n")) done(reply.startsWith("+PONG"));
    });
    socket.on("error", () => done(false));
    socket.on("close", () => done(false));
  });
}

// ---- the server ----

/** Starts a new, empty server on a free port. Stop it with `stop()`. */
export async function startRedis(): Promise<RedisServer> {
  const bin = await binary();
  let dir = "";
  let watchdog: { kill(): void } | null = null;
  let current: Bun.Subprocess | null = null;

  const open = () => {
    dir = mkdtempSync(join(tmpdir(), "wks-redis-"));
    watchdog = startWatchdog(dir, `pid=$(cat '${dir}/server.pid' 2>/dev/null)\n    ${stopPidShell("TERM", 50)}`);
  };
  /** Stops the process, ends the watchdog, removes the directory. */
  const halt = async () => {
    const p = current;
    current = null;
    if (p) await terminate(p);
    watchdog?.kill();
    watchdog = null;
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = "";
  };

  // A port found free may be taken by the time the server binds it: try a few.
  open();
  let port = 0;
  let lastError: unknown;
  for (let attempt = 0; attempt < 5 && !current; attempt++) {
    port = freePort();
    try {
      current = await launch(bin, dir, port);
    } catch (e) {
      lastError = e;
    }
  }
  if (!current) {
    await halt();
    throw lastError;
  }

  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop: halt,
    pause() {
      current?.kill("SIGSTOP");
    },
    resume() {
      current?.kill("SIGCONT");
    },
    async restart() {
      await halt();
      open();
      try {
        current = await launch(bin, dir, port);
      } catch (e) {
        await halt();
        throw e;
      }
    },
  };
}

async function launch(bin: string, dir: string, port: number): Promise<Bun.Subprocess> {
  const log = join(dir, `server-${port}.log`);
  const proc = Bun.spawn(
    [
      bin,
      "--port",
      String(port),
      "--bind",
      "127.0.0.1",
      "--save",
      "",
      "--appendonly",
      "no",
      "--dir",
      dir,
      "--daemonize",
      "no",
      "--logfile",
      "",
    ],
    { cwd: dir, stdin: "ignore", stdout: Bun.file(log), stderr: Bun.file(log) },
  );
  proc.unref();
  // The watchdog reads this file to find the server should this process die.
  writeFileSync(join(dir, "server.pid"), String(proc.pid));

  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (proc.exitCode !== null || proc.signalCode !== null) {
      throw new Error(`Cannot start Redis on port ${port}: the server exited\n${readLog(log)}`);
    }
    if (await ping(port)) return proc;
    if (Date.now() > deadline) {
      await terminate(proc);
      throw new Error(`Cannot start Redis on port ${port}: no PONG after ${START_TIMEOUT_MS} ms\n${readLog(log)}`);
    }
    await Bun.sleep(25);
  }
}

/** SIGTERM (Redis exits at once: it has nothing to save), SIGKILL if it lingers. */
async function terminate(proc: Bun.Subprocess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  proc.kill("SIGCONT"); // a paused server would not act on SIGTERM
  proc.kill("SIGTERM");
  const timer = setTimeout(() => proc.kill("SIGKILL"), 5_000);
  await proc.exited;
  clearTimeout(timer);
}

// ---- one server per process ----

/**
 * The URL of this process's shared server: `TEST_REDIS_URL` when set, otherwise a server started
 * on the first call and stopped when the process exits.
 */
export const sharedRedis = sharedService("TEST_REDIS_URL", startRedis);
