import { createSecretBox } from "../core/access/secret-box.ts";
import { systemClock } from "../core/kernel/clock.ts";
import type { Stores } from "../core/stores.ts";
import { openPgliteStores, openPostgresStores } from "../adapters/postgres/mod.ts";
import { API_PREFIX, buildApp } from "./app.ts";
import { readBuildInfo } from "./build-info.ts";
import { readConfig } from "./config.ts";
import { createLogger } from "./http/logger.ts";
import { resolveSecret } from "./secret.ts";
import { join, resolve } from "node:path";

const config = readConfig();
const logger = createLogger(config.logLevel);

async function openStores(): Promise<Stores> {
  if (config.databaseUrl) return openPostgresStores(config.databaseUrl, { max: config.dbPoolSize });
  return openPgliteStores(join(resolve(config.dataDir), "pglite"));
}

const secret = resolveSecret(config);
const stores = await openStores();
const app = buildApp({
  core: { stores, clock: systemClock, secretBox: await createSecretBox(secret) },
  logger,
  config: { bodyLimitBytes: config.bodyLimitBytes, corsOrigins: config.corsOrigins },
  build: readBuildInfo(),
});

app.listen({ port: config.port, hostname: config.host, maxRequestBodySize: config.bodyLimitBytes + 1024 });
const base = `http://localhost:${app.server!.port}${API_PREFIX}`;
const store = config.databaseUrl ? "postgres" : `embedded (${resolve(config.dataDir)})`;
logger.log("info", `listening on ${base}`, { store });
if (logger.enabled("info")) {
  process.stdout.write(`API listening at ${base}\nDocs at ${base}/docs (OpenAPI: ${base}/openapi.json)\nStore: ${store}\n`);
}

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.log("info", "shutting down", { signal });
  // Stop accepting, let in-flight requests finish, then close the pools.
  await app.server?.stop(false);
  await stores.close();
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
