import { readFileSync } from "node:fs";

/**
 * What every throwaway test service (PostgreSQL, Redis, FerretDB) needs to not outlive its test
 * process: a detached watchdog that stops the server and removes its directory once this process
 * is gone (even after SIGKILL), and a per-process shared instance.
 */

/**
 * Starts the watchdog. `stopServer` is shell that stops the server (it runs after this process
 * has exited); the directory is removed afterwards.
 */
export function startWatchdog(dir: string, stopServer: string): { kill(): void } {
  const script = `
    while kill -0 ${process.pid} 2>/dev/null; do sleep 0.5; done
    ${stopServer}
    rm -rf '${dir}'`;
  const cmd = Bun.which("setsid") ? ["setsid", "sh", "-c", script] : ["sh", "-c", script];
  const proc = Bun.spawn(cmd, { stdin: "ignore", stdout: "ignore", stderr: "ignore" });
  proc.unref();
  return {
    kill() {
      try {
        proc.kill("SIGKILL");
      } catch {
        // Already gone.
      }
    },
  };
}

/** Shell that stops the process whose pid is in `$pid`: `signal`, then KILL after ~`graceTenths`/10 s. */
export function stopPidShell(signal: string, graceTenths: number, finalSignal = "KILL"): string {
  return `if [ -n "$pid" ]; then
      kill -CONT "$pid" 2>/dev/null
      kill -${signal} "$pid" 2>/dev/null
      i=0; while kill -0 "$pid" 2>/dev/null && [ $i -lt ${graceTenths} ]; do sleep 0.1; i=$((i+1)); done
      kill -${finalSignal} "$pid" 2>/dev/null
    fi`;
}

/**
 * A per-process shared server: the URL in `envVar` when set, otherwise one started on the first
 * call and stopped when the process exits.
 */
export function sharedService(envVar: string, start: () => Promise<{ url: string; stop(): Promise<void> }>): () => Promise<string> {
  let shared: Promise<string> | null = null;
  return () => {
    const fromEnv = process.env[envVar];
    if (fromEnv) return Promise.resolve(fromEnv);
    shared ??= start().then((server) => {
      // Exit handlers run synchronously: this sends the stop signal at once, and the watchdog
      // removes the directory once the server and this process are gone.
      process.once("exit", () => void server.stop());
      return server.url;
    });
    return shared;
  };
}

/** A unique database name for one test file's isolation. */
export function uniqueDatabaseName(): string {
  return `t_${Date.now().toString(36)}_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
}

/** The last lines of a server's log file, for error messages. */
export function readLog(path: string): string {
  try {
    return readFileSync(path, "utf8").split("\n").slice(-30).join("\n");
  } catch {
    return "(no server log)";
  }
}
