/**
 * Documents of the MongoDB adapter and their mapping to and from the models.
 *
 * `_id` is the model's id (a UUIDv7 string); timestamps stay the models' ISO 8601 UTC strings,
 * which sort like the instants they name (core writes them with `toISOString()`), so lists sort
 * on them directly. Fields the models do not have are the adapter's bookkeeping for keeping the
 * ports' invariants without transactions (docs/decisions/005-mongo-without-transactions.md).
 */
import type { DeliveryDoc } from "./code-context/retrieval-ledger.ts";
import type { Collection, Db } from "mongodb";
import type { ApiKeyRecord } from "../../core/access/api-key.ts";
import type { Area, Identity, Member, Plan, Repo, RepoProvider, Role, Workspace, WorkspaceSettings } from "../../core/workspaces/model.ts";
import type { MemberView } from "../../core/workspaces/dto.ts";
import type { TagDoc, TopicDoc, TopicEventDoc, TopicRedirectDoc } from "./topics/documents.ts";
import type { RepoIndexDoc } from "./code-context/repo-index-store.ts";
import type { WebhookDeliveryDoc } from "./webhooks/webhook-delivery-store.ts";
import type { NoteShareDoc, ShareLinkDoc } from "./sharing/documents.ts";
import type { ProposalDecisionDoc, ProposalDoc, RelationDoc, RelationMarkerDoc } from "./topics/proposal-relation-documents.ts";
import type { CollectionDoc, CollectionVersionDoc, EntityDoc, EntityVersionDoc, RecordChangesDoc, RecordDoc } from "./collections/documents.ts";

export interface WorkspaceDoc {
  _id: string;
  slug: string;
  name: string;
  plan: Plan;
  settings: WorkspaceSettings;
  created_at: string;
  updated_at: string;
  /**
   * Set (the adapter's clock, ISO) while a bootstrap is in flight. The workspace exists once its
   * first roster version exists (roster.ts); this marker only spares readers that lookup, and is
   * unset right after the bootstrap commits.
   */
  pending_since?: string;
  /** The identity a pending bootstrap inserted, so a purge of the bootstrap can take it away too. */
  pending_identity?: string;
}

/**
 * One version of a workspace's roster: who its owners are and which members are being removed.
 * Insert-only: version v+1 is committed by inserting it, and the unique (workspace_id, v) index
 * lets exactly one of concurrent writers who read version v commit (see roster.ts).
 */
export interface RosterDoc {
  /** `<workspace_id>:<v>` */
  _id: string;
  workspace_id: string;
  v: number;
  /** Member ids of the owners: the source of truth for "is owner". Never emptied. */
  owner_ids: string[];
  /** Members whose removal is committed and whose documents may not be deleted yet. */
  removing: string[];
  /** The version that records the purge of an abandoned bootstrap (the workspace never existed). */
  purged?: true;
  at: string;
}

export interface IdentityDoc {
  _id: string;
  email: string;
  name: string | null;
  created_at: string;
  /**
   * Set when a bootstrap inserted this identity, unset once the bootstrap is complete or another
   * workspace claims the identity. While that workspace is pending, the identity is not visible.
   */
  pending_ws?: string;
}

export interface MemberDoc {
  _id: string;
  workspace_id: string;
  identity_id: string;
  /**
   * The member's role when not listed in the roster's `owner_ids`. `owner` on an unlisted member
   * means an addition as owner or a promotion not yet committed to the roster: readers count it
   * as an owner (a crash never loses an owner), and the next last-owner check adopts it.
   */
  role: Role;
  created_at: string;
  updated_at: string;
}

/** The stored key: the model's fields, with its id as `_id`. */
export type ApiKeyDoc = Omit<ApiKeyRecord, "id"> & { _id: string };

export interface AreaDoc {
  _id: string;
  workspace_id: string;
  name: string;
  description: string | null;
  created_at: string;
  updated_at: string;
}

export interface RepoDoc {
  _id: string;
  workspace_id: string;
  provider: RepoProvider;
  full_name: string;
  default_branch: string;
  clone_url: string | null;
  created_at: string;
}

/** The collections of one database, shared by the stores of one adapter instance. */
export interface MongoCollections {
  workspaces: Collection<WorkspaceDoc>;
  identities: Collection<IdentityDoc>;
  members: Collection<MemberDoc>;
  apiKeys: Collection<ApiKeyDoc>;
  areas: Collection<AreaDoc>;
  repos: Collection<RepoDoc>;
  rosters: Collection<RosterDoc>;
  topics: Collection<TopicDoc>;
  topicEvents: Collection<TopicEventDoc>;
  topicRedirects: Collection<TopicRedirectDoc>;
  repoIndexes: Collection<RepoIndexDoc>;
  webhookDeliveries: Collection<WebhookDeliveryDoc>;
  shareLinks: Collection<ShareLinkDoc>;
  noteShares: Collection<NoteShareDoc>;
  topicProposals: Collection<ProposalDoc>;
  topicProposalDecisions: Collection<ProposalDecisionDoc>;
  topicRelations: Collection<RelationDoc>;
  topicRelationMarkers: Collection<RelationMarkerDoc>;
  retrievalDeliveries: Collection<DeliveryDoc>;
  tags: Collection<TagDoc>;
  collections: Collection<CollectionDoc>;
  collectionVersions: Collection<CollectionVersionDoc>;
  records: Collection<RecordDoc>;
  recordChanges: Collection<RecordChangesDoc>;
  entities: Collection<EntityDoc>;
  entityVersions: Collection<EntityVersionDoc>;
}

export const COLLECTION_NAMES = {
  workspaces: "workspaces",
  identities: "identities",
  members: "members",
  apiKeys: "api_keys",
  areas: "areas",
  repos: "repos",
  rosters: "rosters",
  topics: "topics",
  topicEvents: "topic_events",
  topicRedirects: "topic_redirects",
  repoIndexes: "repo_indexes",
  webhookDeliveries: "webhook_deliveries",
  shareLinks: "share_links",
  noteShares: "note_shares",
  topicProposals: "topic_proposals",
  topicProposalDecisions: "topic_proposal_decisions",
  topicRelations: "topic_relations",
  topicRelationMarkers: "topic_relation_markers",
  retrievalDeliveries: "retrieval_deliveries",
  tags: "tags",
  collections: "collections",
  collectionVersions: "collection_versions",
  records: "records",
  recordChanges: "record_changes",
  entities: "entities",
  entityVersions: "entity_versions",
} as const;

export function collections(db: Db): MongoCollections {
  return {
    workspaces: db.collection<WorkspaceDoc>(COLLECTION_NAMES.workspaces),
    identities: db.collection<IdentityDoc>(COLLECTION_NAMES.identities),
    members: db.collection<MemberDoc>(COLLECTION_NAMES.members),
    apiKeys: db.collection<ApiKeyDoc>(COLLECTION_NAMES.apiKeys),
    areas: db.collection<AreaDoc>(COLLECTION_NAMES.areas),
    repos: db.collection<RepoDoc>(COLLECTION_NAMES.repos),
    rosters: db.collection<RosterDoc>(COLLECTION_NAMES.rosters),
    topics: db.collection<TopicDoc>(COLLECTION_NAMES.topics),
    topicEvents: db.collection<TopicEventDoc>(COLLECTION_NAMES.topicEvents),
    topicRedirects: db.collection<TopicRedirectDoc>(COLLECTION_NAMES.topicRedirects),
    repoIndexes: db.collection<RepoIndexDoc>(COLLECTION_NAMES.repoIndexes),
    webhookDeliveries: db.collection<WebhookDeliveryDoc>(COLLECTION_NAMES.webhookDeliveries),
    shareLinks: db.collection<ShareLinkDoc>(COLLECTION_NAMES.shareLinks),
    noteShares: db.collection<NoteShareDoc>(COLLECTION_NAMES.noteShares),
    topicProposals: db.collection<ProposalDoc>(COLLECTION_NAMES.topicProposals),
    topicProposalDecisions: db.collection<ProposalDecisionDoc>(COLLECTION_NAMES.topicProposalDecisions),
    topicRelations: db.collection<RelationDoc>(COLLECTION_NAMES.topicRelations),
    topicRelationMarkers: db.collection<RelationMarkerDoc>(COLLECTION_NAMES.topicRelationMarkers),
    retrievalDeliveries: db.collection<DeliveryDoc>(COLLECTION_NAMES.retrievalDeliveries),
    tags: db.collection<TagDoc>(COLLECTION_NAMES.tags),
    collections: db.collection<CollectionDoc>(COLLECTION_NAMES.collections),
    collectionVersions: db.collection<CollectionVersionDoc>(COLLECTION_NAMES.collectionVersions),
    records: db.collection<RecordDoc>(COLLECTION_NAMES.records),
    recordChanges: db.collection<RecordChangesDoc>(COLLECTION_NAMES.recordChanges),
    entities: db.collection<EntityDoc>(COLLECTION_NAMES.entities),
    entityVersions: db.collection<EntityVersionDoc>(COLLECTION_NAMES.entityVersions),
  };
}

/** The adapter's knobs, injectable so tests can age pending writes. */
export interface MongoStoreOptions {
  /** Wall clock of pending markers (ms). */
  now: () => number;
  /** A pending bootstrap older than this was abandoned by a crashed process. */
  abandonedAfterMs: number;
  /** How long a bootstrap waits for a concurrent, fresh bootstrap of the same slug or e-mail to settle. */
  settleWaitMs: number;
}

export const DEFAULT_OPTIONS: MongoStoreOptions = {
  now: Date.now,
  abandonedAfterMs: 2 * 60_000,
  settleWaitMs: 5_000,
};

// ---- documents → models ----

export function toWorkspace(d: WorkspaceDoc): Workspace {
  return {
    id: d._id,
    slug: d.slug,
    name: d.name,
    plan: d.plan,
    settings: { ...d.settings },
    created_at: d.created_at,
    updated_at: d.updated_at,
  };
}

export function toIdentity(d: IdentityDoc): Identity {
  return { id: d._id, email: d.email, name: d.name ?? null, created_at: d.created_at };
}

/** The role readers see: listed in the roster's `owner_ids` means owner, whatever the member document says. */
export function effectiveRole(d: MemberDoc, ownerIds: readonly string[] | undefined): Role {
  return ownerIds?.includes(d._id) ? "owner" : d.role;
}

export function toMember(d: MemberDoc, ownerIds: readonly string[] | undefined): Member {
  return {
    id: d._id,
    workspace_id: d.workspace_id,
    identity_id: d.identity_id,
    role: effectiveRole(d, ownerIds),
    created_at: d.created_at,
    updated_at: d.updated_at,
  };
}

export function toMemberView(d: MemberDoc, ownerIds: readonly string[] | undefined, person: IdentityDoc): MemberView {
  return { ...toMember(d, ownerIds), email: person.email, name: person.name ?? null };
}

export function toApiKey(d: ApiKeyDoc): ApiKeyRecord {
  return {
    id: d._id,
    workspace_id: d.workspace_id,
    name: d.name,
    prefix: d.prefix,
    identity_id: d.identity_id ?? null,
    created_by: d.created_by ?? null,
    key_hash: d.key_hash,
    key_ciphertext: d.key_ciphertext,
    created_at: d.created_at,
    last_used_at: d.last_used_at ?? null,
  };
}

export function toArea(d: AreaDoc): Area {
  return {
    id: d._id,
    workspace_id: d.workspace_id,
    name: d.name,
    description: d.description ?? null,
    created_at: d.created_at,
    updated_at: d.updated_at,
  };
}

export function toRepo(d: RepoDoc): Repo {
  return {
    id: d._id,
    workspace_id: d.workspace_id,
    provider: d.provider,
    full_name: d.full_name,
    default_branch: d.default_branch,
    clone_url: d.clone_url ?? null,
    created_at: d.created_at,
  };
}

// ---- models → documents ----

export function identityDoc(i: Identity): IdentityDoc {
  return { _id: i.id, email: i.email, name: i.name, created_at: i.created_at };
}

export function memberDoc(m: Member): MemberDoc {
  return {
    _id: m.id,
    workspace_id: m.workspace_id,
    identity_id: m.identity_id,
    role: m.role,
    created_at: m.created_at,
    updated_at: m.updated_at,
  };
}

export function apiKeyDoc(k: ApiKeyRecord): ApiKeyDoc {
  return {
    _id: k.id,
    workspace_id: k.workspace_id,
    name: k.name,
    prefix: k.prefix,
    identity_id: k.identity_id,
    created_by: k.created_by,
    key_hash: k.key_hash,
    key_ciphertext: k.key_ciphertext,
    created_at: k.created_at,
    last_used_at: k.last_used_at,
  };
}

export function areaDoc(a: Area): AreaDoc {
  return {
    _id: a.id,
    workspace_id: a.workspace_id,
    name: a.name,
    description: a.description,
    created_at: a.created_at,
    updated_at: a.updated_at,
  };
}

export function repoDoc(r: Repo): RepoDoc {
  return {
    _id: r.id,
    workspace_id: r.workspace_id,
    provider: r.provider,
    full_name: r.full_name,
    default_branch: r.default_branch,
    clone_url: r.clone_url,
    created_at: r.created_at,
  };
}

// ---- helpers ----

/**
 * A unique index refused the write. MongoDB reports E11000 (11001 on old servers), on the error
 * or in its write errors. FerretDB v1 on SQLite reports E11000 for inserts but an `InternalError`
 * quoting SQLite's "UNIQUE constraint failed" for updates, so that message counts too.
 */
export function isDuplicateKey(e: unknown): boolean {
  if (typeof e !== "object" || e === null) return false;
  const err = e as { code?: unknown; message?: unknown; writeErrors?: Array<{ code?: unknown }> };
  if (err.code === 11000 || err.code === 11001) return true;
  if (Array.isArray(err.writeErrors) && err.writeErrors.some((w) => w?.code === 11000)) return true;
  return typeof err.message === "string" && /E11000 duplicate key|UNIQUE constraint failed/.test(err.message);
}

/** One page and the total under the same filter; both served by the filter's index. */
export async function listPage<D extends { _id: string }, T>(
  coll: Collection<D>,
  filter: Record<string, unknown>,
  sort: Record<string, 1 | -1>,
  page: { limit: number; offset: number },
  map: (d: D) => T,
  projection?: Record<string, 0 | 1>,
): Promise<{ items: T[]; total: number }> {
  const limit = Math.max(0, Math.trunc(page.limit));
  const offset = Math.max(0, Math.trunc(page.offset));
  const [docs, total] = await Promise.all([
    limit === 0 ? Promise.resolve([] as D[]) : (coll.find(filter as never, projection ? { projection } : {}).sort(sort).skip(offset).limit(limit).toArray() as Promise<D[]>),
    coll.countDocuments(filter as never),
  ]);
  return { items: docs.map(map), total };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A short randomised pause between retries of a conflicting write. */
export const backoff = (attempt: number) => sleep(Math.random() * Math.min(50, 2 + attempt * 3));

export const isoAt = (ms: number) => new Date(ms).toISOString();
