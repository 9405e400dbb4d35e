/**
 * The indexes of the MongoDB adapter, created at start-up with `createIndexes` (idempotent: an
 * index that exists with the same key and options is left as it is).
 *
 * Tenancy rule (DESIGN.md "Tenancy"): every index of tenant data starts with `workspace_id`, so
 * tenant queries are scoped by construction and a sharded cluster can use `{ workspace_id, _id }`
 * as shard key. `workspaces` and `identities` are global. Lookups of one tenant document go by
 * `{ _id, workspace_id }`: served by the built-in `_id` index, and by the shard key once sharded.
 * Every query of the stores is served by one of these indexes (or `_id`); unique constraints are
 * unique indexes, which is what keeps them under concurrent writes without transactions.
 */
import type { Db, IndexDescription } from "mongodb";
import { COLLECTION_NAMES } from "./documents.ts";

export const INDEXES: Record<keyof typeof COLLECTION_NAMES, IndexDescription[]> = {
  workspaces: [{ key: { slug: 1 }, name: "slug_unique", unique: true }],
  identities: [{ key: { email: 1 }, name: "email_unique", unique: true }],
  members: [
    { key: { workspace_id: 1, identity_id: 1 }, name: "workspace_identity_unique", unique: true },
    // Lists, oldest first; the workspace's members on deletion.
    { key: { workspace_id: 1, created_at: 1, _id: 1 }, name: "workspace_created" },
    // Members marked owner but not yet listed in the roster's owner_ids (the last-owner check).
    { key: { workspace_id: 1, role: 1 }, name: "workspace_role" },
    // Exception to the tenancy rule: "which workspaces is this person in" (GET /me,
    // IdentityStore.memberships) asks across workspaces by identity. Sharded, it is a fan-out
    // served by this index on every shard.
    { key: { identity_id: 1, created_at: 1, _id: 1 }, name: "identity_created" },
  ],
  apiKeys: [
    // Exception to the tenancy rule: authentication starts from the raw key alone, before any
    // workspace is known, so the hash must be found in one lookup across all workspaces. A
    // SHA-256 of 200 random bits cannot collide between tenants in practice; the unique index
    // makes that a guarantee. (Sharded, the hash lookup moves to an unsharded lookup collection.)
    { key: { key_hash: 1 }, name: "key_hash_unique", unique: true },
    // Lists, newest first, of the whole workspace ...
    { key: { workspace_id: 1, created_at: -1, _id: -1 }, name: "workspace_created" },
    // ... or of one identity's keys (and service keys: identity_id null); a member's keys on removal.
    { key: { workspace_id: 1, identity_id: 1, created_at: -1, _id: -1 }, name: "workspace_identity_created" },
  ],
  areas: [
    { key: { workspace_id: 1, name: 1 }, name: "workspace_name_unique", unique: true },
    { key: { workspace_id: 1, created_at: 1, _id: 1 }, name: "workspace_created" },
  ],
  repos: [
    { key: { workspace_id: 1, provider: 1, full_name: 1 }, name: "workspace_provider_full_name_unique", unique: true },
    { key: { workspace_id: 1, created_at: 1, _id: 1 }, name: "workspace_created" },
    // Exception to the tenancy rule: the code-host webhook names a repository (`acme/api`), not a
    // workspace, and finds every workspace linking it (RepoStore.findByFullName).
    { key: { full_name: 1, created_at: 1, _id: 1 }, name: "full_name_created" },
  ],
  rosters: [
    // The compare-and-set of roster changes: one writer inserts version v+1 (roster.ts); and the
    // newest version, by the same index read backwards.
    { key: { workspace_id: 1, v: -1 }, name: "workspace_version_unique", unique: true },
  ],
  topics: [
    // Slugs are unique per workspace among live topics (redirects live apart, topic_redirects).
    { key: { workspace_id: 1, slug: 1 }, name: "workspace_slug_unique", unique: true },
    // Search: `terms: { $all: [...] }` (multikey; no text index on FerretDB, see topic-store.ts).
    { key: { workspace_id: 1, terms: 1 }, name: "workspace_terms" },
    // Tag filters, tag counts, and the topics a retag rewrites.
    { key: { workspace_id: 1, tags: 1 }, name: "workspace_tags" },
    // Lists in `compareListed` order, of every status but archived or of one status.
    { key: { workspace_id: 1, list_rank: -1, updated_at: -1, _id: -1 }, name: "workspace_list_order" },
    { key: { workspace_id: 1, status: 1, list_rank: -1, updated_at: -1, _id: -1 }, name: "workspace_status_list_order" },
    // Topics by the bases of their anchors (match-files, drift).
    { key: { workspace_id: 1, anchor_bases: 1 }, name: "workspace_anchor_bases" },
    // The repo filter, in list order.
    { key: { workspace_id: 1, repo_id: 1, list_rank: -1, updated_at: -1, _id: -1 }, name: "workspace_repo_list_order" },
    // The graph ETag's stale count: reviewed topics approved before an instant.
    { key: { workspace_id: 1, status: 1, "governance.approved_at": 1 }, name: "workspace_status_approved" },
  ],
  topicEvents: [
    // The lock of every topic write (exactly one writer inserts version v+1); history newest
    // first; the newest event of a topic (healing); a topic's events on its deletion.
    { key: { workspace_id: 1, topic_id: 1, version: -1 }, name: "workspace_topic_version_unique", unique: true },
    // The timeline, newest first: all of it, by type, by repo.
    { key: { workspace_id: 1, at: -1, _id: -1 }, name: "workspace_timeline" },
    { key: { workspace_id: 1, type: 1, at: -1, _id: -1 }, name: "workspace_type_timeline" },
    { key: { workspace_id: 1, repo_id: 1, at: -1, _id: -1 }, name: "workspace_repo_timeline" },
  ],
  topicRedirects: [
    // `_id` is `<workspace_id>:<slug>`; this one finds the redirects to a topic (its deletion).
    { key: { workspace_id: 1, topic_id: 1 }, name: "workspace_topic" },
  ],
  // `_id` is the repo id (one index per repo, read with its workspace_id); the workspace's on its deletion.
  repoIndexes: [{ key: { workspace_id: 1, _id: 1 }, name: "workspace_id" }],
  // Global: `_id` is `<source>:<delivery_id>` (the claim is its insert); pruning by age.
  webhookDeliveries: [{ key: { received_at: 1 }, name: "received_at" }],
  shareLinks: [
    // Exception to the tenancy rule: the public page finds its link from the token alone (like
    // api_keys.key_hash). `_id` is `<workspace_id>:<topic_id>`: one link per topic.
    { key: { token_hash: 1 }, name: "token_hash_unique", unique: true },
    // The workspace's links on its deletion.
    { key: { workspace_id: 1, topic_id: 1 }, name: "workspace_topic" },
  ],
  noteShares: [
    // A member's inbox, newest first; its read-all; the member's entries on removal.
    { key: { workspace_id: 1, recipient_member_id: 1, created_at: -1, _id: -1 }, name: "workspace_recipient_created" },
    // A topic's entries on its deletion.
    { key: { workspace_id: 1, topic_id: 1 }, name: "workspace_topic" },
  ],
  topicProposals: [
    // A topic's proposals, newest first (optionally of one status); its proposals on its deletion.
    { key: { workspace_id: 1, topic_id: 1, created_at: -1, _id: -1 }, name: "workspace_topic_created" },
    // The review queue (open ones, oldest first) and other status lists.
    { key: { workspace_id: 1, status: 1, created_at: 1, _id: 1 }, name: "workspace_status_created" },
  ],
  topicProposalDecisions: [
    // `_id` is the proposal's id (the decision's lock); this one finds a workspace's on its deletion.
    { key: { workspace_id: 1, _id: 1 }, name: "workspace_id" },
  ],
  topicRelations: [
    // One relation per core `relationKey` (from, to, type; a symmetric type's pair in either order).
    { key: { workspace_id: 1, key: 1 }, name: "workspace_key_unique", unique: true },
    // A topic's relations in both directions (`$or` of the two), oldest first.
    { key: { workspace_id: 1, from_topic_id: 1, created_at: 1, _id: 1 }, name: "workspace_from_created" },
    { key: { workspace_id: 1, to_topic_id: 1, created_at: 1, _id: 1 }, name: "workspace_to_created" },
    // The full graph's edges, oldest first.
    { key: { workspace_id: 1, created_at: 1, _id: 1 }, name: "workspace_created" },
  ],
  // `_id` is the workspace id: one marker per workspace, nothing else to index.
  topicRelationMarkers: [],
  // Forgetting a workspace's old deliveries (lookups go by _id).
  retrievalDeliveries: [{ key: { workspace_id: 1, delivered_at: 1 }, name: "workspace_delivered_at" }],
  tags: [
    // `_id` is `<workspace_id>:<name>` (one registration per name); this one lists a workspace's.
    { key: { workspace_id: 1, name: 1 }, name: "workspace_name_unique", unique: true },
  ],
  // Collections, newest first (lookups go by _id); `purging` is a marker read with them.
  collections: [{ key: { workspace_id: 1, _id: -1 }, name: "workspace_id" }],
  collectionVersions: [
    // The lock of every collection write and purge (one writer inserts version v+1); the newest
    // version by the same index read backwards (roll-forward); a collection's on its purge.
    { key: { workspace_id: 1, collection_id: 1, version: -1 }, name: "workspace_collection_version_unique", unique: true },
  ],
  records: [
    // A collection's records by id (the default order: created_at is id order), its purge.
    { key: { workspace_id: 1, collection_id: 1, _id: 1 }, name: "workspace_collection_id" },
    // Boards and filters by stage, in id order; the sort by status.
    { key: { workspace_id: 1, collection_id: 1, status: 1, _id: 1 }, name: "workspace_collection_status_id" },
  ],
  recordChanges: [
    // The lock of every record write (one writer inserts version v+1); history newest first;
    // the newest entry of a record (roll-forward); a record's entries on its deletion.
    { key: { workspace_id: 1, record_id: 1, version: -1 }, name: "workspace_record_version_unique", unique: true },
    // A collection's entries on its purge plan and purge.
    { key: { workspace_id: 1, collection_id: 1 }, name: "workspace_collection" },
  ],
  entities: [
    // The upsert's lock: one entity per (workspace, kind, dedup_norm); `dedup_slot` is `k:<norm>`,
    // or `id:<id>` for an entity without a key (no partial index on FerretDB v1).
    { key: { workspace_id: 1, kind: 1, dedup_slot: 1 }, name: "workspace_kind_slot_unique", unique: true },
    // Lists newest first, of one kind or of all.
    { key: { workspace_id: 1, kind: 1, _id: -1 }, name: "workspace_kind_id" },
    { key: { workspace_id: 1, _id: -1 }, name: "workspace_id" },
  ],
  entityVersions: [
    // The lock of every entity merge; the newest version (roll-forward).
    { key: { workspace_id: 1, entity_id: 1, version: -1 }, name: "workspace_entity_version_unique", unique: true },
  ],
};

/**
 * Creates the indexes a collection lacks, one collection at a time; safe to run at every start and
 * from several processes. Asking only for the missing ones, sequentially, matters on FerretDB v1:
 * there, concurrent `createIndexes` calls for indexes that already exist made the server drop the
 * connection, so a second server instance (or a restart) failed to start.
 */
export async function ensureIndexes(db: Db): Promise<void> {
  for (const k of Object.keys(INDEXES) as Array<keyof typeof COLLECTION_NAMES>) {
    const collection = db.collection(COLLECTION_NAMES[k]);
    const existing = new Set((await collection.indexes().catch(() => [])).map((i) => i.name));
    const missing = INDEXES[k].filter((spec) => !existing.has(spec.name!));
    if (missing.length > 0) await collection.createIndexes(missing);
  }
}
