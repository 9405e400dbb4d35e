/**
 * SIGTERM and SIGINT for the server and `npm run worker` (docs/decisions/054-database-outages.md):
 * `stop` gets until the deadline (SHUTDOWN_TIMEOUT_MS after the signal) to stop taking work, finish
 * or hand back what it holds and close its connections; the process then exits 0. Whatever still
 * runs at the deadline, the process exits then, with 1, so a supervisor never needs `kill -9`.
 */
import type { Logger } from "./http/logger.ts";

/** `stop` receives its deadline as a `performance.now()` value. */
export function exitOnSignals(logger: Logger, timeoutMs: number, stop: (deadline: number) => Promise<void>): void {
  let stopping = false;
  const run = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    const started = performance.now();
    logger.log("info", "shutting down", { signal, timeout_ms: timeoutMs });
    const hard = setTimeout(() => {
      logger.log("error", "shutdown did not finish within SHUTDOWN_TIMEOUT_MS: exiting now", { timeout_ms: timeoutMs });
      process.exit(1);
    }, timeoutMs);
    try {
      await stop(started + timeoutMs);
    } catch (e) {
      logger.log("error", "shutdown failed: exiting now", { error: e instanceof Error ? e.message : String(e) });
      process.exit(1);
    }
    clearTimeout(hard);
    logger.log("info", "stopped", { duration_ms: Math.round(performance.now() - started) });
    process.exit(0);
  };
  process.on("SIGTERM", () => void run("SIGTERM"));
  process.on("SIGINT", () => void run("SIGINT"));
}

/** Resolves with `work`'s outcome as true, or false once `ms` pass (work goes on, unobserved). */
export function within(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    work.then(() => true, () => true),
    new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), Math.max(0, ms)))),
  ]).finally(() => clearTimeout(timer));
}
