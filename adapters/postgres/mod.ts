/**
 * The PostgreSQL adapter: one SQL implementation of every store port, over postgres.js for a
 * PostgreSQL server or PGlite for an embedded database. Both open functions apply the migrations
 * before they return.
 */
import type { Stores, StoreStatus } from "../../core/stores.ts";
import type { TopicReadCacheLimits } from "../../core/topics/topic-read-cache.ts";
import { storesOf, transferOf } from "../store-bundle.ts";
import { sqlAccessBundle } from "./access/bundle.ts";
import { sqlBillingBundle } from "./billing/bundle.ts";
import { sqlCodeContextBundle } from "./code-context/bundle.ts";
import { sqlCollectionBundle } from "./collections/bundle.ts";
import { sqlContactBundle } from "./contacts/bundle.ts";
import { sqlCreditBundle } from "./credits/bundle.ts";
import { sqlRadarBundle } from "./radar/bundle.ts";
import { sqlIdentityBundle } from "./identity/bundle.ts";
import { sqlJobBundle } from "./jobs/bundle.ts";
import type { SqlDriver } from "./driver.ts";
import { migrate } from "./migrate.ts";
import { pgliteDriver } from "./pglite-driver.ts";
import { postgresJsDriver, type PostgresJsOptions } from "./postgres-js-driver.ts";
import { sqlSharingBundle } from "./sharing/bundle.ts";
import { sqlTopicBundle } from "./topics/bundle.ts";
import { sqlWebhookBundle } from "./webhooks/bundle.ts";
import { sqlWorkspaceBundle } from "./workspaces/bundle.ts";
import { sqlMailBundle } from "./mail/bundle.ts";
import { sqlOfferBundle } from "./offers/bundle.ts";
import { sqlSupportBundle } from "./support-desk/bundle.ts";

export type { SqlDriver } from "./driver.ts";
export { migrate } from "./migrate.ts";
export { type Migration, MIGRATIONS } from "./migrations/mod.ts";
export { pgliteDriver } from "./pglite-driver.ts";
export { postgresJsDriver, type PostgresJsOptions } from "./postgres-js-driver.ts";

export interface SqlStoreOptions {
  /** Bounds of the topic read cache (ADR 047); false: none, every read goes to the database. */
  topicReadCache?: TopicReadCacheLimits | false;
}

/**
 * Every store over one driver, one bundle per module (ADR 019). The schema must be migrated
 * already (see `migrate`). A new module adds its migration (migrations/mod.ts) and its bundle here.
 */
export function createSqlStores(driver: SqlDriver, opts: SqlStoreOptions = {}): Stores {
  const bundles = [
    sqlWorkspaceBundle(driver),
    sqlAccessBundle(driver),
    sqlTopicBundle(driver, opts.topicReadCache),
    sqlCodeContextBundle(driver),
    sqlSharingBundle(driver),
    sqlCollectionBundle(driver),
    sqlWebhookBundle(driver),
    sqlCreditBundle(driver),
    sqlRadarBundle(driver),
    sqlContactBundle(driver),
    sqlJobBundle(driver),
    sqlIdentityBundle(driver),
    sqlMailBundle(driver),
    sqlBillingBundle(driver),
    sqlOfferBundle(driver),
    sqlSupportBundle(driver),
  ] as const;
  return {
    ...storesOf(bundles),
    transfer: transferOf(bundles),
    status: () => status(driver),
    close: () => driver.close(),
    // PostgreSQL only: PGlite has one connection, which a snapshot would hold for as long as its
    // reader (a workspace export's download) takes, and every other request would wait for it.
    ...(driver.kind === "postgres"
      ? {
        snapshot: <T>(fn: (stores: Stores) => Promise<T>) =>
          driver.transaction(async (tx) => {
            // The first statement of the transaction: every later read sees the database as of it.
            await tx.query("set transaction isolation level repeatable read, read only");
            return fn(createSqlStores(tx, { topicReadCache: false }));
          }),
      }
      : {}),
  };
}

async function status(driver: SqlDriver): Promise<StoreStatus> {
  const start = performance.now();
  let ok = true;
  try {
    await driver.query("select 1");
  } catch {
    ok = false;
  }
  return { kind: driver.kind, ok, latency_ms: Math.round((performance.now() - start) * 100) / 100 };
}

/** Connects to a PostgreSQL server (`postgres://user@host:port/db`), migrates, returns the stores. */
export async function openPostgresStores(url: string, opts: PostgresJsOptions & SqlStoreOptions = {}): Promise<Stores> {
  return open(postgresJsDriver(url, opts), opts);
}

/** Opens PGlite in `dataDir` (in memory when undefined), migrates, returns the stores. */
export async function openPgliteStores(dataDir?: string, opts: SqlStoreOptions = {}): Promise<Stores> {
  return open(await pgliteDriver(dataDir), opts);
}

async function open(driver: SqlDriver, opts: SqlStoreOptions): Promise<Stores> {
  try {
    await migrate(driver);
  } catch (e) {
    await driver.close().catch(() => {});
    throw e;
  }
  return createSqlStores(driver, opts);
}
