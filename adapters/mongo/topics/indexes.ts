import type { IndexDescription } from "mongodb";
import type { TOPIC_COLLECTION_NAMES } from "./collections.ts";

/** Topics' indexes, by collection (the tenancy rule and its exceptions: ../indexes.ts). */
export const TOPIC_INDEXES: Record<keyof typeof TOPIC_COLLECTION_NAMES, IndexDescription[]> = {
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
    // The list of one tag (`tags: { $in: [one] }` is an equality on the multikey field) in list
    // order, so a page is an index range on MongoDB as `topic_tags_list_idx` makes it on
    // PostgreSQL (ADR 037). FerretDB v1 scans regardless (bench/README.md).
    { key: { workspace_id: 1, tags: 1, list_rank: -1, updated_at: -1, _id: -1 }, name: "workspace_tag_list_order" },
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
  tags: [
    // `_id` is `<workspace_id>:<name>` (one registration per name); this one lists a workspace's.
    { key: { workspace_id: 1, name: 1 }, name: "workspace_name_unique", unique: true },
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
};
