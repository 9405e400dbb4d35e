import { API_PREFIX, buildApp } from "./app.ts";
import { compose } from "./compose.ts";
import { readConfig } from "./config.ts";
import { createLogger } from "./http/logger.ts";
import { routeProcessOutput, startOrExit } from "./process-output.ts";
import { exitOnSignals, within } from "./shutdown.ts";

const config = await startOrExit(() => readConfig());
const logger = createLogger(config.logLevel);
routeProcessOutput(logger);
const shutdown = new AbortController();
const composed = await startOrExit(() => compose(config, logger, { shutdown: shutdown.signal }));
const app = buildApp({ ...composed.deps, shutdown: shutdown.signal });
/**
 * How far over BODY_LIMIT_BYTES a body may be before Bun itself refuses it, with a bare 413 and no
 * body: up to here the API answers its own 413 PAYLOAD_TOO_LARGE (the declared length checked
 * before reading, a chunked body once read; signed webhooks, which read raw bytes, stop here).
 */
const BODY_SLACK_BYTES = 8 * 1024 * 1024;
/** Of SHUTDOWN_TIMEOUT_MS, what is kept for closing the pools once requests and jobs are done. */
const CLOSE_RESERVE_MS = 1_000;

exitOnSignals(logger, config.shutdownTimeoutMs, async (deadline) => {
  // Not ready any more, event streams end; the listener closes at once (new connections are
  // refused) while in-flight requests run on, and the jobs this process holds get the same time.
  shutdown.abort();
  const graceMs = Math.max(0, deadline - performance.now() - Math.min(CLOSE_RESERVE_MS, config.shutdownTimeoutMs / 4));
  const server = app.server;
  const requests = server ? server.stop(false) : Promise.resolve();
  const jobs = composed.stopJobs(graceMs);
  if (!(await within(requests, graceMs))) {
    logger.log("warn", "in-flight requests did not finish in time; closing their connections", { grace_ms: Math.round(graceMs) });
    await within(server?.stop(true) ?? Promise.resolve(), 100);
  }
  logger.log("debug", "requests finished");
  await within(jobs, deadline - performance.now());
  logger.log("debug", "jobs finished or handed back");
  await composed.close();
});

// A records import streams its larger body to a file (RECORDS_IMPORT_LIMIT_BYTES, checked as it is read).
const maxBody = Math.max(config.bodyLimitBytes, config.importLimitBytes) + BODY_SLACK_BYTES;
app.listen({ port: config.port, hostname: config.host, maxRequestBodySize: maxBody });
// Every interface: localhost is one of them. One address (127.0.0.1, the embedded default): that one.
const shown = config.host === "0.0.0.0" || config.host === "::"
  ? "localhost"
  : config.host.includes(":")
  ? `[${config.host}]`
  : config.host;
const base = `http://${shown}:${app.server!.port}${API_PREFIX}`;
logger.log("info", `listening on ${base}`, {
  host: config.host,
  docs: `${base}/docs`,
  openapi: `${base}/openapi.json`,
  readiness: `${base}/health/ready`,
  store: composed.storeLabel,
});
