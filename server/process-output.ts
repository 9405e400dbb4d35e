/**
 * Every line a server or worker process writes is one JSON object of the structured log
 * (docs/decisions/054-database-outages.md): what libraries print through `console` (BullMQ's
 * warnings, a client's dump of an error with its connection object) and errors nobody awaited are
 * routed into the logger instead of the terminal's multi-line rendering.
 */
import { format } from "node:util";
import type { Logger } from "./http/logger.ts";

export function routeProcessOutput(logger: Logger): void {
  const to = (level: "debug" | "info" | "warn" | "error") => (...args: unknown[]) => {
    if (logger.enabled(level)) logger.log(level, format(...args), { source: "console" });
  };
  console.log = to("info");
  console.info = to("info");
  console.debug = to("debug");
  console.trace = to("debug");
  console.warn = to("warn");
  console.error = to("error");

  // A promise rejected with nobody waiting (fire-and-forget work of a library): logged, and the
  // process goes on serving.
  process.on("unhandledRejection", (reason) => {
    logger.log("error", "unhandled rejection", describe(reason));
  });
  // A throw outside any promise leaves state nobody can vouch for: logged, then the process exits
  // with 1 for its supervisor to start a fresh one.
  process.on("uncaughtException", (error) => {
    logger.log("error", "uncaught exception: exiting", describe(error));
    process.exit(1);
  });
}

function describe(e: unknown): Record<string, unknown> {
  return e instanceof Error ? { error: `${e.name}: ${e.message}`, stack: e.stack } : { error: format(e) };
}

/**
 * Runs a step of the start; one that fails (a bad setting, an unreachable database) says why in
 * one JSON line on stderr and exits with 1.
 */
export async function startOrExit<T>(start: () => T | Promise<T>): Promise<T> {
  try {
    return await start();
  } catch (e) {
    const line = { ts: new Date().toISOString(), level: "error", msg: e instanceof Error ? e.message : String(e), phase: "start" };
    process.stderr.write(JSON.stringify(line) + "\n");
    process.exit(1);
  }
}
