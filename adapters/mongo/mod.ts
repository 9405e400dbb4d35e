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
import { storesOf, transferOf } from "../store-bundle.ts";
import { createIndexes, type MongoSchema } from "./indexes.ts";
import { DEFAULT_OPTIONS, type MongoStoreOptions } from "./options.ts";
import { mongoAccessBundle } from "./access/bundle.ts";
import { ACCESS_COLLECTION_NAMES, accessCollections } from "./access/collections.ts";
import { ACCESS_INDEXES } from "./access/indexes.ts";
import { mongoBillingBundle } from "./billing/bundle.ts";
import { BILLING_COLLECTION_NAMES, billingCollections } from "./billing/collections.ts";
import { BILLING_INDEXES } from "./billing/indexes.ts";
import { mongoCodeContextBundle } from "./code-context/bundle.ts";
import { CODE_CONTEXT_COLLECTION_NAMES, codeContextCollections } from "./code-context/collections.ts";
import { CODE_CONTEXT_INDEXES } from "./code-context/indexes.ts";
import { mongoCollectionBundle } from "./collections/bundle.ts";
import { COLLECTION_COLLECTION_NAMES, collectionCollections } from "./collections/collections.ts";
import { COLLECTION_INDEXES } from "./collections/indexes.ts";
import { mongoContactBundle } from "./contacts/bundle.ts";
import { CONTACT_COLLECTION_NAMES, contactCollections } from "./contacts/collections.ts";
import { CONTACT_INDEXES } from "./contacts/indexes.ts";
import { mongoCreditBundle } from "./credits/bundle.ts";
import { CREDIT_COLLECTION_NAMES, creditCollections } from "./credits/collections.ts";
import { CREDIT_INDEXES } from "./credits/indexes.ts";
import { mongoIdentityBundle } from "./identity/bundle.ts";
import { IDENTITY_COLLECTION_NAMES, identityCollections } from "./identity/collections.ts";
import { IDENTITY_INDEXES } from "./identity/indexes.ts";
import { mongoRadarBundle } from "./radar/bundle.ts";
import { JOB_COLLECTION_NAMES, JOB_INDEXES, jobCollections, mongoJobBundle } from "./jobs/bundle.ts";
import { RADAR_COLLECTION_NAMES, radarCollections } from "./radar/collections.ts";
import { RADAR_INDEXES } from "./radar/indexes.ts";
import { mongoSharingBundle } from "./sharing/bundle.ts";
import { SHARING_COLLECTION_NAMES, sharingCollections } from "./sharing/collections.ts";
import { SHARING_INDEXES } from "./sharing/indexes.ts";
import { mongoTopicBundle } from "./topics/bundle.ts";
import { TOPIC_COLLECTION_NAMES, topicCollections } from "./topics/collections.ts";
import { TOPIC_INDEXES } from "./topics/indexes.ts";
import { mongoWebhookBundle } from "./webhooks/bundle.ts";
import { WEBHOOK_COLLECTION_NAMES, webhookCollections } from "./webhooks/collections.ts";
import { WEBHOOK_INDEXES } from "./webhooks/indexes.ts";
import { mongoWorkspaceBundle } from "./workspaces/bundle.ts";
import { WORKSPACE_COLLECTION_NAMES, workspaceCollections } from "./workspaces/collections.ts";
import { WORKSPACE_INDEXES } from "./workspaces/indexes.ts";
import { mongoMailBundle } from "./mail/bundle.ts";
import { MAIL_COLLECTION_NAMES, mailCollections } from "./mail/collections.ts";
import { MAIL_INDEXES } from "./mail/indexes.ts";
import { mongoOfferBundle } from "./offers/bundle.ts";
import { OFFER_COLLECTION_NAMES, offerCollections } from "./offers/collections.ts";
import { OFFER_INDEXES } from "./offers/indexes.ts";
import { mongoSupportBundle } from "./support-desk/bundle.ts";
import { SUPPORT_COLLECTION_NAMES, supportCollections } from "./support-desk/collections.ts";
import { SUPPORT_INDEXES } from "./support-desk/indexes.ts";

export type { MongoStoreOptions } from "./options.ts";

/** Every module's collections and indexes; a new module adds its own here. */
export const SCHEMAS: readonly MongoSchema[] = [
  { names: WORKSPACE_COLLECTION_NAMES, indexes: WORKSPACE_INDEXES },
  { names: ACCESS_COLLECTION_NAMES, indexes: ACCESS_INDEXES },
  { names: TOPIC_COLLECTION_NAMES, indexes: TOPIC_INDEXES },
  { names: CODE_CONTEXT_COLLECTION_NAMES, indexes: CODE_CONTEXT_INDEXES },
  { names: SHARING_COLLECTION_NAMES, indexes: SHARING_INDEXES },
  { names: COLLECTION_COLLECTION_NAMES, indexes: COLLECTION_INDEXES },
  { names: WEBHOOK_COLLECTION_NAMES, indexes: WEBHOOK_INDEXES },
  { names: CREDIT_COLLECTION_NAMES, indexes: CREDIT_INDEXES },
  { names: RADAR_COLLECTION_NAMES, indexes: RADAR_INDEXES },
  { names: CONTACT_COLLECTION_NAMES, indexes: CONTACT_INDEXES },
  { names: JOB_COLLECTION_NAMES, indexes: JOB_INDEXES },
  { names: IDENTITY_COLLECTION_NAMES, indexes: IDENTITY_INDEXES },
  { names: MAIL_COLLECTION_NAMES, indexes: MAIL_INDEXES },
  { names: BILLING_COLLECTION_NAMES, indexes: BILLING_INDEXES },
  { names: OFFER_COLLECTION_NAMES, indexes: OFFER_INDEXES },
  { names: SUPPORT_COLLECTION_NAMES, indexes: SUPPORT_INDEXES },
];

/** Creates the indexes every module's stores rely on (see indexes.ts); safe at every start. */
export const ensureIndexes = (db: Db): Promise<void> => createIndexes(db, SCHEMAS);

export interface OpenMongoOptions {
  /** The database; else the URL's path; else `wks`. */
  dbName?: string;
  /** Passed to `MongoClient` (pool size, timeouts, TLS, ...). */
  clientOptions?: MongoClientOptions;
}

const DEFAULT_DB = "wks";
/** How long `status()` waits for the server before reporting it down. */
const STATUS_TIMEOUT_MS = 2_000;

/**
 * Every store over one database, one bundle per module (ADR 019). The indexes must exist already
 * (see `ensureIndexes`). Deleting a workspace runs every bundle's purge; a new module adds its
 * collections and its bundle here.
 */
export function createMongoStores(client: MongoClient, db: Db, options: Partial<MongoStoreOptions> = {}): Stores {
  const o: MongoStoreOptions = { ...DEFAULT_OPTIONS, ...options };
  const c = {
    ...workspaceCollections(db),
    ...accessCollections(db),
    ...topicCollections(db),
    ...codeContextCollections(db),
    ...sharingCollections(db),
    ...collectionCollections(db),
    ...webhookCollections(db),
    ...creditCollections(db),
    ...radarCollections(db),
    ...contactCollections(db),
    ...jobCollections(db),
    ...identityCollections(db),
    ...mailCollections(db),
    ...billingCollections(db),
    ...offerCollections(db),
    ...supportCollections(db),
  };
  const credits = mongoCreditBundle(c);
  const collections = mongoCollectionBundle(c);
  const bundles = [
    mongoWorkspaceBundle(c, o, async (id) => {
      await Promise.all(bundles.map((b) => b.purgeWorkspace(id)));
    }),
    mongoAccessBundle(c),
    mongoTopicBundle(c, o),
    mongoCodeContextBundle(c),
    mongoSharingBundle(c),
    collections,
    mongoWebhookBundle(c),
    credits,
    mongoRadarBundle(c),
    mongoContactBundle(c, credits.stores.creditLedger, collections.stores),
    mongoJobBundle(c),
    mongoIdentityBundle(c),
    mongoMailBundle(c),
    mongoBillingBundle(c),
    mongoOfferBundle(c),
    mongoSupportBundle(c),
  ] as const;
  return {
    ...storesOf(bundles),
    transfer: transferOf(bundles),
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
