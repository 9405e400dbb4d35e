/**
 * The MongoDB adapter: every store port on the official `mongodb` driver, for MongoDB and
 * MongoDB-wire-compatible servers (the tests run it on FerretDB v1). It uses no multi-document
 * transactions (FerretDB and standalone servers lack them), and no invariant rests on a
 * conditional update either, since FerretDB v1 applies updates as a read then a whole-document
 * replacement. The invariants rest on the two writes that are atomic everywhere: an insert into a
 * unique index and a delete by `_id`; plus write order, markers readers respect, and idempotent
 * or compensating writes (docs/decisions/005-mongo-without-transactions.md).
 */
import { type Db, MongoClient, type MongoClientOptions } from "mongodb";
import type { Stores, StoreStatus } from "../../core/stores.ts";
import { MongoApiKeyStore } from "./access/api-key-store.ts";
import { MongoAreaStore } from "./workspaces/area-store.ts";
import { collections, DEFAULT_OPTIONS, type MongoStoreOptions } from "./documents.ts";
import { MongoIdentityStore } from "./workspaces/identity-store.ts";
import { ensureIndexes } from "./indexes.ts";
import { MongoMemberStore } from "./workspaces/member-store.ts";
import { MongoRepoStore } from "./workspaces/repo-store.ts";
import { MongoRepoIndexStore } from "./code-context/repo-index-store.ts";
import { MongoWebhookDeliveryStore } from "./webhooks/webhook-delivery-store.ts";
import { MongoRetrievalLedger } from "./code-context/retrieval-ledger.ts";
import { MongoNoteShareStore } from "./sharing/note-share-store.ts";
import { MongoShareLinkStore } from "./sharing/share-link-store.ts";
import { MongoProposalStore } from "./topics/proposal-store.ts";
import { MongoRelationStore } from "./topics/relation-store.ts";
import { MongoTagStore } from "./topics/tag-store.ts";
import { MongoTopicStore } from "./topics/topic-store.ts";
import { MongoWorkspaceStore } from "./workspaces/workspace-store.ts";
import { MongoCollectionStore } from "./collections/collection-store.ts";
import { MongoEntityStore } from "./collections/entity-store.ts";
import { MongoRecordStore } from "./collections/record-store.ts";

export { ensureIndexes, INDEXES } from "./indexes.ts";
export type { MongoStoreOptions } from "./documents.ts";

export interface OpenMongoOptions {
  /** The database; else the URL's path; else `wks`. */
  dbName?: string;
  /** Passed to `MongoClient` (pool size, timeouts, TLS, ...). */
  clientOptions?: MongoClientOptions;
}

const DEFAULT_DB = "wks";
/** How long `status()` waits for the server before reporting it down. */
const STATUS_TIMEOUT_MS = 2_000;

/** Every store over one database. The indexes must exist already (see `ensureIndexes`). */
export function createMongoStores(client: MongoClient, db: Db, options: Partial<MongoStoreOptions> = {}): Stores {
  const o: MongoStoreOptions = { ...DEFAULT_OPTIONS, ...options };
  const c = collections(db);
  const topics = new MongoTopicStore(c);
  return {
    workspaces: new MongoWorkspaceStore(c, o),
    identities: new MongoIdentityStore(c),
    members: new MongoMemberStore(c, o),
    apiKeys: new MongoApiKeyStore(c),
    areas: new MongoAreaStore(c),
    repos: new MongoRepoStore(c),
    topics,
    tags: new MongoTagStore(c, topics, o),
    proposals: new MongoProposalStore(c),
    relations: new MongoRelationStore(c),
    shareLinks: new MongoShareLinkStore(c),
    noteShares: new MongoNoteShareStore(c),
    repoIndex: new MongoRepoIndexStore(c),
    retrievals: new MongoRetrievalLedger(c),
    webhookDeliveries: new MongoWebhookDeliveryStore(c),
    collections: new MongoCollectionStore(c),
    records: new MongoRecordStore(c),
    entities: new MongoEntityStore(c),
    status: () => status(db),
    close: () => client.close(),
  };
}

/** Connects (`mongodb://host:port/db`), creates the indexes, returns the stores. */
export async function openMongoStores(url: string, opts: OpenMongoOptions = {}): Promise<Stores> {
  const client = new MongoClient(url, opts.clientOptions);
  try {
    await client.connect();
    const db = client.db(opts.dbName ?? dbNameFromUrl(url) ?? DEFAULT_DB);
    await ensureIndexes(db);
    return createMongoStores(client, db);
  } catch (e) {
    await client.close().catch(() => {});
    throw e;
  }
}

/**
 * The database named by a connection string's path, if any. Parsed by hand: a seed list
 * (`host1:1,host2:2`) is not a host `URL` accepts.
 */
export function dbNameFromUrl(url: string): string | undefined {
  const m = /^mongodb(?:\+srv)?:\/\/[^/?]*\/([^?#]*)/.exec(url);
  const name = m?.[1] ? decodeURIComponent(m[1]) : "";
  return name === "" ? undefined : name;
}

async function status(db: Db): Promise<StoreStatus> {
  const start = performance.now();
  let ok = true;
  try {
    await db.command({ ping: 1 }, { timeoutMS: STATUS_TIMEOUT_MS });
  } catch {
    ok = false;
  }
  return { kind: "mongo", ok, latency_ms: Math.round((performance.now() - start) * 100) / 100 };
}
