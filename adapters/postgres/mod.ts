/**
 * The PostgreSQL adapter: one SQL implementation of every store port, over postgres.js for a
 * PostgreSQL server or PGlite for an embedded database. Both open functions apply the migrations
 * before they return.
 */
import type { Stores, StoreStatus } from "../../core/stores.ts";
import { PostgresApiKeyStore } from "./access/api-key-store.ts";
import { PostgresCollectionStore } from "./collections/collection-store.ts";
import { PostgresEntityStore } from "./collections/entity-store.ts";
import { PostgresRecordStore } from "./collections/record-store.ts";
import { PostgresAreaStore } from "./workspaces/area-store.ts";
import type { SqlDriver } from "./driver.ts";
import { PostgresIdentityStore } from "./workspaces/identity-store.ts";
import { PostgresMemberStore } from "./workspaces/member-store.ts";
import { migrate } from "./migrate.ts";
import { pgliteDriver } from "./pglite-driver.ts";
import { type PostgresJsOptions, postgresJsDriver } from "./postgres-js-driver.ts";
import { PostgresRepoStore } from "./workspaces/repo-store.ts";
import { PostgresRepoIndexStore } from "./code-context/repo-index-store.ts";
import { PostgresWebhookDeliveryStore } from "./webhooks/webhook-delivery-store.ts";
import { PostgresRetrievalLedger } from "./code-context/retrieval-ledger.ts";
import { PostgresProposalStore } from "./topics/proposal-store.ts";
import { PostgresRelationStore } from "./topics/relation-store.ts";
import { PostgresNoteShareStore } from "./sharing/note-share-store.ts";
import { PostgresShareLinkStore } from "./sharing/share-link-store.ts";
import { PostgresTagStore } from "./topics/tag-store.ts";
import { PostgresTopicStore } from "./topics/topic-store.ts";
import { PostgresWorkspaceStore } from "./workspaces/workspace-store.ts";

export type { SqlDriver } from "./driver.ts";
export { migrate } from "./migrate.ts";
export { MIGRATIONS, type Migration } from "./migrations/mod.ts";
export { pgliteDriver } from "./pglite-driver.ts";
export { type PostgresJsOptions, postgresJsDriver } from "./postgres-js-driver.ts";

/** Every store over one driver. The schema must be migrated already (see `migrate`). */
export function createSqlStores(driver: SqlDriver): Stores {
  return {
    workspaces: new PostgresWorkspaceStore(driver),
    identities: new PostgresIdentityStore(driver),
    members: new PostgresMemberStore(driver),
    apiKeys: new PostgresApiKeyStore(driver),
    areas: new PostgresAreaStore(driver),
    repos: new PostgresRepoStore(driver),
    topics: new PostgresTopicStore(driver),
    tags: new PostgresTagStore(driver),
    proposals: new PostgresProposalStore(driver),
    relations: new PostgresRelationStore(driver),
    shareLinks: new PostgresShareLinkStore(driver),
    noteShares: new PostgresNoteShareStore(driver),
    repoIndex: new PostgresRepoIndexStore(driver),
    retrievals: new PostgresRetrievalLedger(driver),
    webhookDeliveries: new PostgresWebhookDeliveryStore(driver),
    collections: new PostgresCollectionStore(driver),
    records: new PostgresRecordStore(driver),
    entities: new PostgresEntityStore(driver),
    status: () => status(driver),
    close: () => driver.close(),
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
export async function openPostgresStores(url: string, opts: PostgresJsOptions = {}): Promise<Stores> {
  return open(postgresJsDriver(url, opts));
}

/** Opens PGlite in `dataDir` (in memory when undefined), migrates, returns the stores. */
export async function openPgliteStores(dataDir?: string): Promise<Stores> {
  return open(await pgliteDriver(dataDir));
}

async function open(driver: SqlDriver): Promise<Stores> {
  try {
    await migrate(driver);
  } catch (e) {
    await driver.close().catch(() => {});
    throw e;
  }
  return createSqlStores(driver);
}
