/**
 * `npm run worker`: consumes background jobs with no HTTP server
 * (docs/decisions/024-job-queues.md). It composes core exactly as the server does (same
 * configuration, same stores and queue), consumes the shared queue with `jobRunner`
 * (registry.ts), and on SIGTERM or SIGINT stops taking jobs, lets the running ones finish (those
 * still running near SHUTDOWN_TIMEOUT_MS are handed back to the queue) and exits
 * (docs/decisions/054-database-outages.md). A configuration without a shared queue (embedded, or
 * MongoDB without REDIS_URL) has nothing for another process to consume: the worker refuses to
 * start, saying why. Every line it writes is one JSON object.
 */
import { compose } from "../server/compose.ts";
import { readConfig } from "../server/config.ts";
import { createLogger } from "../server/http/logger.ts";
import { routeProcessOutput, startOrExit } from "../server/process-output.ts";
import { exitOnSignals } from "../server/shutdown.ts";
import { jobConsumer } from "./consumer.ts";

/** Of SHUTDOWN_TIMEOUT_MS, what is kept for closing the pools once the jobs are done or handed back. */
const CLOSE_RESERVE_MS = 1_000;

const config = await startOrExit(() => readConfig());
await startOrExit(() => {
  if (!config.redisUrl && !config.databaseUrl) {
    throw new Error(
      "Cannot start a worker: this configuration has no job queue other processes share. Jobs are queued " +
        "in-process by the server (embedded, or MongoDB without Redis), which runs them itself. Set REDIS_URL " +
        "or DATABASE_URL to share jobs through BullMQ. See docs/decisions/024-job-queues.md.",
    );
  }
});
const logger = createLogger(config.logLevel);
routeProcessOutput(logger);
// A worker always consumes, whatever WORKERS says (that setting is the servers').
const composed = await startOrExit(() => compose({ ...config, workers: true }, logger, { consumer: jobConsumer }));
exitOnSignals(logger, config.shutdownTimeoutMs, async (deadline) => {
  await composed.stopJobs(Math.max(0, deadline - performance.now() - Math.min(CLOSE_RESERVE_MS, config.shutdownTimeoutMs / 4)));
  await composed.close();
});
logger.log("info", "worker consuming jobs", { store: composed.storeLabel });
