import { API_PREFIX, buildApp } from "./app.ts";
import { compose } from "./compose.ts";
import { readConfig } from "./config.ts";
import { createLogger } from "./http/logger.ts";

const config = readConfig();
const logger = createLogger(config.logLevel);
const composed = await compose(config, logger);
const app = buildApp(composed.deps);

app.listen({ port: config.port, hostname: config.host, maxRequestBodySize: config.bodyLimitBytes + 1024 });
const base = `http://localhost:${app.server!.port}${API_PREFIX}`;
logger.log("info", `listening on ${base}`, { store: composed.storeLabel });
if (logger.enabled("info")) {
  process.stdout.write(`API listening at ${base}\nDocs at ${base}/docs (OpenAPI: ${base}/openapi.json)\nStore: ${composed.storeLabel}\n`);
}

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.log("info", "shutting down", { signal });
  // Stop accepting, let in-flight requests finish, then close pools and connections.
  await app.server?.stop(false);
  await composed.close();
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
