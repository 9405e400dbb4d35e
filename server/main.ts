import { API_PREFIX, buildApp } from "./app.ts";
import { compose } from "./compose.ts";
import { readConfig } from "./config.ts";
import { createLogger } from "./http/logger.ts";

const config = readConfig();
const logger = createLogger(config.logLevel);
const composed = await compose(config, logger);
const shutdown = new AbortController();
const app = buildApp({ ...composed.deps, shutdown: shutdown.signal });
/**
 * How far over BODY_LIMIT_BYTES a body may be before Bun itself refuses it, with a bare 413 and no
 * body: up to here the API answers its own 413 PAYLOAD_TOO_LARGE (the declared length checked
 * before reading, a chunked body once read; signed webhooks, which read raw bytes, stop here).
 */
const BODY_SLACK_BYTES = 8 * 1024 * 1024;
/** How long in-flight requests get to finish after SIGTERM before connections are closed. */
const SHUTDOWN_GRACE_MS = 10_000;

app.listen({ port: config.port, hostname: config.host, maxRequestBodySize: config.bodyLimitBytes + BODY_SLACK_BYTES });
// Every interface: localhost is one of them. One address (127.0.0.1, the embedded default): that one.
const shown = config.host === "0.0.0.0" || config.host === "::"
  ? "localhost"
  : config.host.includes(":")
  ? `[${config.host}]`
  : config.host;
const base = `http://${shown}:${app.server!.port}${API_PREFIX}`;
logger.log("info", `listening on ${base}`, { host: config.host, store: composed.storeLabel });
if (logger.enabled("info")) {
  process.stdout.write(`API listening at ${base}\nDocs at ${base}/docs (OpenAPI: ${base}/openapi.json)\nStore: ${composed.storeLabel}\n`);
}

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.log("info", "shutting down", { signal });
  // Stop accepting, end event streams, let in-flight requests finish (within a grace period),
  // then close pools and connections.
  shutdown.abort();
  const drained = app.server?.stop(false) ?? Promise.resolve();
  const inTime = await Promise.race([drained.then(() => true), Bun.sleep(SHUTDOWN_GRACE_MS).then(() => false)]);
  if (!inTime) {
    logger.log("warn", "in-flight requests did not finish in time; closing their connections", { grace_ms: SHUTDOWN_GRACE_MS });
    await app.server?.stop(true);
  }
  await composed.close();
  process.exit(0);
}
process.on("SIGTERM", () => void stop("SIGTERM"));
process.on("SIGINT", () => void stop("SIGINT"));
