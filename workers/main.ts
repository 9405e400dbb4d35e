/**
 * `npm run worker`: consumes background jobs with no HTTP server (DESIGN, cross-cutting item 5;
 * docs/decisions/024-job-queues.md). It composes core exactly as the server does (same
 * configuration, same stores and queue), consumes the shared queue with `jobRunner`
 * (registry.ts), and on SIGTERM or SIGINT lets the running jobs finish before it exits. A
 * configuration without a shared queue (embedded, or MongoDB without REDIS_URL) has nothing for
 * another process to consume: the worker refuses to start, saying why.
 */
import { compose } from "../server/compose.ts";
import { readConfig } from "../server/config.ts";
import { createLogger } from "../server/http/logger.ts";

const config = readConfig();
if (!config.redisUrl && !config.databaseUrl) {
  process.stderr.write(
    "Cannot start a worker: this configuration has no job queue other processes share. Jobs are queued " +
      "in-process by the server (embedded, or MongoDB without Redis), which runs them itself. Set REDIS_URL " +
      "or DATABASE_URL to share jobs through BullMQ. See docs/decisions/024-job-queues.md.\n",
  );
  process.exit(1);
}
const logger = createLogger(config.logLevel);
// A worker always consumes, whatever WORKERS says (that setting is the servers').
const composed = await compose({ ...config, workers: true }, logger);
logger.log("info", "worker consuming jobs", { store: composed.storeLabel });
process.stdout.write(`Worker consuming jobs (store: ${composed.storeLabel})\n`);

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.log("info", "worker shutting down", { signal });
  await composed.close();
  process.exit(0);
}
process.on("SIGTERM", () => void stop("SIGTERM"));
process.on("SIGINT", () => void stop("SIGINT"));
