import { createSecretBox } from "../core/access/secret-box.ts";
import { systemClock } from "../core/kernel/clock.ts";
import type { Stores } from "../core/stores.ts";
import { withAuthCache } from "../adapters/cache/cached-stores.ts";
import { createLocalInvalidationBus, type InvalidationBus } from "../adapters/cache/invalidation-bus.ts";
import { openPgliteStores, openPostgresStores } from "../adapters/postgres/mod.ts";
import { createPostgresInvalidationBus } from "../adapters/postgres/notify-bus.ts";
import { API_PREFIX, buildApp } from "./app.ts";
import { readBuildInfo } from "./build-info.ts";
import { readConfig } from "./config.ts";
import { createLogger } from "./http/logger.ts";
import { bunKeyHasher } from "./key-hasher.ts";
import { resolveSecret } from "./secret.ts";
import { join, resolve } from "node:path";

const config = readConfig();
const logger = createLogger(config.logLevel);

async function openStores(): Promise<{ stores: Stores; bus: InvalidationBus }> {
  const url = config.databaseUrl;
  const inner = url
    ? await openPostgresStores(url, { max: config.dbPoolSize })
    : await openPgliteStores(join(resolve(config.dataDir), "pglite"));
  const bus = url ? await createPostgresInvalidationBus(url) : createLocalInvalidationBus();
  if (config.authCacheTtlMs === 0) return { stores: inner, bus };
  return { stores: withAuthCache(inner, bus, { ttlMs: config.authCacheTtlMs, maxEntries: 10_000 }), bus };
}

const secret = resolveSecret(config);
const { stores, bus } = await openStores();
const app = buildApp({
  core: { stores, clock: systemClock, secretBox: await createSecretBox(secret), keyHasher: bunKeyHasher },
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
  await bus.close();
  await stores.close();
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
