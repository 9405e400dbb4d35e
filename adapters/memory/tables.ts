import type { ApiKeyRecord } from "../../core/access/api-key.ts";
import type { Area, Identity, Member, Repo, Workspace } from "../../core/workspaces/model.ts";
import type { Proposal, Relation, Tag, Topic, TopicEvent } from "../../core/topics/model.ts";
import type { RepoIndex } from "../../core/code-context/ports.ts";
import type { NoteShare, ShareLink } from "../../core/sharing/model.ts";
import type { Collection, CollectionRecord, Entity, RecordChange } from "../../core/collections/model.ts";

/**
 * The in-memory "database": plain maps shared by the stores of one adapter instance. Every
 * store method runs synchronously between awaits, so each is atomic like a transaction.
 */
export class MemoryTables {
  workspaces = new Map<string, Workspace>();
  workspaceIdBySlug = new Map<string, string>();
  identities = new Map<string, Identity>();
  identityIdByEmail = new Map<string, string>();
  members = new Map<string, Member>();
  apiKeys = new Map<string, ApiKeyRecord>();
  apiKeyIdByHash = new Map<string, string>();
  areas = new Map<string, Area>();
  repos = new Map<string, Repo>();
  topics = new Map<string, Topic>();
  /** `${workspace_id}:${slug}` → topic id: old slugs a move left behind. */
  topicRedirects = new Map<string, string>();
  topicEvents = new Map<string, TopicEvent>();
  /** repo id → its file index. */
  repoIndexes = new Map<string, RepoIndex>();
  /** `${source}:${delivery_id}` → when it was received. Global, like workspaces. */
  webhookDeliveries = new Map<string, string>();
  /** Retrieval deliveries by workspace, session and topic. */
  deliveries = new Map<string, { workspace_id: string; version: number; at: string }>();
  /** `${workspace_id}:${name}` → tag. */
  tags = new Map<string, Tag>();
  /** `${workspace_id}:${topic_id}` → the topic's one active share link. */
  shareLinks = new Map<string, ShareLink>();
  /** token hash → key of `shareLinks`. */
  shareLinkKeyByHash = new Map<string, string>();
  noteShares = new Map<string, NoteShare>();
  proposals = new Map<string, Proposal>();
  relations = new Map<string, Relation>();
  /** workspace id → its relation change counter. */
  relationMarkers = new Map<string, number>();
  collections = new Map<string, Collection>();
  records = new Map<string, CollectionRecord>();
  recordChanges = new Map<string, RecordChange>();
  entities = new Map<string, Entity>();
  /** `${workspace_id}:${kind}:${dedup_norm}` → entity id */
  entityIdByKey = new Map<string, string>();
}

/** Copies on the way in and out, so callers never hold a live reference to stored state. */
export const copy = <T>(value: T): T => structuredClone(value);

export function page<T>(rows: T[], offset: number, limit: number): { items: T[]; total: number } {
  return { items: rows.slice(offset, offset + limit).map(copy), total: rows.length };
}

export const byCreated = (a: { created_at: string; id: string }, b: { created_at: string; id: string }) =>
  a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

export function inWorkspace<T extends { workspace_id: string }>(rows: Map<string, T>, workspaceId: string): T[] {
  const out: T[] = [];
  for (const r of rows.values()) if (r.workspace_id === workspaceId) out.push(r);
  return out;
}
