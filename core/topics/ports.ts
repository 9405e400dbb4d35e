import type { Listed, Workspace, WorkspaceStores } from "../workspaces/mod.ts";
import type { CoreDeps } from "../kernel/deps.ts";
import type { OffsetPage } from "../kernel/paging.ts";
import type { CapacityGate } from "../kernel/capacity.ts";
import type { TopicStatus } from "./governance.ts";
import type {
  GraphFingerprint,
  GraphNodeRow,
  Proposal,
  ProposalDecision,
  ProposalStatus,
  Relation,
  Tag,
  Topic,
  TopicEvent,
  TopicEventType,
  TopicKind,
  TopicOrigin,
} from "./model.ts";
import type { AnchorValidation, TagView } from "./dto.ts";

/**
 * Store ports of the topics module. Absence is `null`, `false` or `[]`; expected refusals are
 * returned strings. Every write method is atomic on its own (all of it or none of it); on a
 * backend without transactions, a method interrupted halfway can be called again and completes.
 */

/** Stale-ness as a store filters it: reviewed and approved before `before` (or not). */
export interface StaleFilter {
  is: boolean;
  before: string;
}

export interface TopicFilter {
  /** One status; undefined means every status but archived. */
  status?: TopicStatus;
  /** Any-of, normalised names. An empty list matches nothing. */
  tags?: string[];
  stale?: StaleFilter;
  kind?: TopicKind;
  origin?: TopicOrigin;
  repoId?: string;
  hasExternal?: boolean;
  /** Drifted (a `drift` recorded) or not. */
  drifted?: boolean;
  /** With an owner (`owner_id`) or not. */
  hasOwner?: boolean;
  /** With at least one anchor or none. */
  hasAnchors?: boolean;
}

export interface TopicSearch {
  /** Terms from `tokenize`, 1 to MAX_QUERY_TERMS; a topic must hold all of them. */
  terms: string[];
  /** The statuses searched; never archived. */
  statuses: TopicStatus[];
  tags?: string[];
  stale?: StaleFilter;
  limit: number;
  /** Count matches up to this many only (counting every match of a common word costs a scan). */
  countCap?: number;
  /** Read only the first characters of each body (views that show an excerpt). */
  bodyChars?: number;
}

export interface SearchResult {
  /** In `compareRanked` order, at most `limit`. */
  items: Topic[];
  /** Topics matching, counted exactly up to `countCap`. */
  total: number;
  /**
   * True when more than `countCap` topics match: `total` is then not exact (`countCap`, or a
   * store's estimate of the matches above it).
   */
  capped?: boolean;
}

/** How a list reads its topics. */
export interface ReadOptions {
  /** Read only the first characters of each body (views that show an excerpt); a store may read all of it. */
  bodyChars?: number;
}

export interface TimelineFilter {
  type?: TopicEventType;
  repoId?: string;
}

/** A topic a slug names: `redirectedFrom` is the slug when it is an old one (a redirect), else null. */
export interface Resolved {
  topic: Topic;
  redirectedFrom: string | null;
}

/** A change to apply: the topic's next state and the event recording it (same version). */
export interface TopicWrite {
  topic: Topic;
  event: TopicEvent;
}

/** What is kept beside a kept answer (ADR 049): values derived from it, each under a key. */
export interface KeptBeside {
  /** The value kept beside `answer` under `key`; undefined when none is, or `answer` is not kept. */
  get(answer: object, key: string): unknown;
  /** Keeps `value` (`chars` characters) beside `answer` under `key`, when `answer` is kept now. */
  set(answer: object, key: string, value: unknown, chars: number): void;
}

export interface TopicStore {
  /**
   * Present when `list` and `search` answers are kept (ADR 047): what may be kept beside them
   * (ADR 049). Absent on stores that keep nothing (memory, MongoDB, `TOPIC_CACHE_MB=0`).
   */
  readonly kept?: KeptBeside;
  get(workspaceId: string, topicId: string): Promise<Topic | null>;
  /** The topics of these ids that exist, in no particular order (at most 1,000 ids). */
  getMany(workspaceId: string, topicIds: readonly string[]): Promise<Topic[]>;
  /** The topic with this slug, else the topic an old slug (a redirect) points at. */
  resolve(workspaceId: string, slug: string): Promise<Resolved | null>;
  /**
   * `resolve` for several slugs in one read (at most 1,000 slugs): keyed by the slug
   * asked, each distinct slug once; a slug naming nothing (in this workspace) is absent.
   */
  resolveMany(workspaceId: string, slugs: readonly string[]): Promise<Map<string, Resolved>>;
  /** Topics in `compareListed` order. */
  list(workspaceId: string, filter: TopicFilter, page: OffsetPage, options?: ReadOptions): Promise<Listed<Topic>>;
  search(workspaceId: string, search: TopicSearch): Promise<SearchResult>;
  /** Events of one topic that still hold a snapshot, newest first, at most `limit`. */
  history(workspaceId: string, topicId: string, limit: number): Promise<TopicEvent[]>;
  /**
   * Topics (any status but archived) with an anchor whose `anchorBase` is one of `bases`, of repo
   * `repoId` (any repo when null), at most `limit`, in `compareListed` order. Candidates only: the
   * caller matches the patterns.
   */
  anchoredAt(workspaceId: string, repoId: string | null, bases: string[], limit: number, options?: ReadOptions): Promise<Topic[]>;
  /** The workspace timeline, newest first; rows come without their snapshot (null). */
  timeline(workspaceId: string, filter: TimelineFilter, page: OffsetPage): Promise<Listed<TopicEvent>>;

  /**
   * Inserts a new topic (version 1) and its event; registers its tags. A slug held by a live
   * topic is "slug_taken"; a slug that is only a redirect is taken over (the redirect is dropped).
   */
  insert(w: TopicWrite): Promise<"ok" | "slug_taken">;
  /**
   * Replaces the topic whose stored version is `w.topic.version - 1` (else "version_conflict")
   * and records the event; registers new tags. When the slug changes, the old slug becomes a
   * redirect to the topic.
   */
  update(w: TopicWrite): Promise<"ok" | "version_conflict" | "not_found" | "slug_taken">;
  /**
   * Merge as one change: `target` is updated and `source` archived with `merged_into`, each
   * version checked. (The source keeps its slug; reads follow `merged_into` to the target.)
   * Without transactions: the target is written first and records the source in `merged_from`,
   * so a merge interrupted before the source is archived is completed by calling it again.
   */
  merge(source: TopicWrite, target: TopicWrite): Promise<"ok" | "version_conflict" | "not_found">;
  /**
   * Deletes the topic at `expectedVersion` (any version when null): the topic, the redirects
   * pointing at it, and the snapshots of its events; `event` (a `topic.deleted`) is recorded.
   */
  delete(
    workspaceId: string,
    topicId: string,
    expectedVersion: number | null,
    event: TopicEvent,
  ): Promise<"ok" | "version_conflict" | "not_found">;
}

export interface TagStore {
  /** Registered tags, most-used first, then by name. */
  list(workspaceId: string, page: OffsetPage): Promise<Listed<TagView>>;
  get(workspaceId: string, name: string): Promise<TagView | null>;
  /**
   * Registers a tag, or, when it exists, sets its description if `tag.description` is not null.
   * `created` tells which happened.
   */
  upsert(tag: Tag): Promise<{ tag: TagView; created: boolean }>;
  /** Sets the description (null clears it). */
  describe(workspaceId: string, name: string, description: string | null, at: string): Promise<TagView | null>;
  /**
   * Rewrites every topic carrying `from` with `rewrite` (which drops `from` and, for a rename,
   * adds `to`) and then moves the registry entry: onto `to` (registered if new; its own
   * description kept, else `from`'s), or away when `to` is null. Returns the topics rewritten,
   * or null when `from` is not registered. A topic changed concurrently is re-read and rewritten.
   */
  retag(workspaceId: string, from: string, to: string | null, rewrite: (topic: Topic) => TopicWrite): Promise<number | null>;
}

/**
 * What code context adds to topic answers (`codeContextHooks` of core/code-context/mod.ts). A port,
 * so that topics need not import code-context, which reads topics: the composition plugs it in.
 * A hook is another module's code and may read any bundle: it is given the host's whole deps (typed `CoreDeps<unknown>` here; the hook names what it reads, ADR 066).
 */
export interface AnchorReports {
  /** `anchor_validation` of create and update answers; undefined when the topic has no repo. */
  validation(deps: CoreDeps<unknown>, ws: Workspace, topic: Topic): Promise<AnchorValidation | undefined>;
  /** `orphaned_anchors` of `GET /topics/{topic}?include_orphaned=true`: anchors matching no file of the repo's index. */
  orphaned(deps: CoreDeps<unknown>, ws: Workspace, topic: Topic): Promise<string[]>;
}

export interface ProposalFilter {
  topicId?: string;
  status?: ProposalStatus;
}

/**
 * Where suggested edits live. Absence is `null`; refusals are returned strings. Every method is
 * atomic on its own.
 */
export interface ProposalStore {
  insert(p: Proposal): Promise<void>;
  get(workspaceId: string, id: string): Promise<Proposal | null>;
  /** `newest`: created_at, id descending (a topic's proposals); `oldest`: ascending (the review queue). */
  list(workspaceId: string, filter: ProposalFilter, order: "newest" | "oldest", page: OffsetPage): Promise<Listed<Proposal>>;
  /**
   * Closes an open proposal. Of concurrent decisions exactly one is "ok"; the others, and any
   * decision on a closed proposal, are "not_open".
   */
  decide(workspaceId: string, id: string, d: ProposalDecision): Promise<"ok" | "not_open" | "not_found">;
  /** Deletes the proposals of a topic (its deletion: their patches hold its text). */
  removeTopic(workspaceId: string, topicId: string): Promise<void>;
}

/**
 * Where topic relations live, and the reads the graph needs. Absence is `null`, `false` or `[]`;
 * refusals are returned strings. Every method is atomic on its own. Lists come oldest first
 * (created_at, then id). Reads tolerate a relation whose topic is gone (a deletion cut short on a
 * backend without transactions): such a relation simply has no node.
 */
export interface RelationStore {
  /**
   * Inserts a relation unless the workspace has one with the same `relationKey` ("duplicate",
   * also under concurrent inserts) or one of its topics does not exist ("not_found"), then
   * advances the workspace's relation marker.
   */
  insert(r: Relation): Promise<"ok" | "duplicate" | "not_found">;
  get(workspaceId: string, id: string): Promise<Relation | null>;
  /** Deletes a relation and advances the marker; false when there was none. */
  delete(workspaceId: string, id: string): Promise<boolean>;
  /** Relations with either end among `topicIds`, at most `limit`. */
  ofTopics(workspaceId: string, topicIds: readonly string[], limit: number): Promise<Relation[]>;
  /** Every relation of the workspace, at most `limit`. */
  list(workspaceId: string, limit: number): Promise<Relation[]>;
  /**
   * A merge: every relation of `sourceId` is carried to `targetId` (keeping type, direction,
   * created_at and created_by, under a new id); one that would relate the target to itself, or
   * duplicate a relation the target has, is dropped. Advances the marker. Returns how many were
   * carried. Calling it again completes an interrupted call.
   */
  retarget(workspaceId: string, sourceId: string, targetId: string, newId: () => string): Promise<number>;
  /** Deletes every relation of a topic (its deletion). */
  removeTopic(workspaceId: string, topicId: string): Promise<void>;

  // ---- the graph's reads ----

  /** The topics with these ids, any status, in no particular order; unknown ids are left out. */
  nodes(workspaceId: string, ids: readonly string[]): Promise<GraphNodeRow[]>;
  /** Every topic (archived ones only with `includeArchived`), oldest first (id), at most `limit`. */
  allNodes(workspaceId: string, includeArchived: boolean, limit: number): Promise<GraphNodeRow[]>;
  /** The graph's change fingerprint, from indexed aggregates (no topic is loaded). */
  fingerprint(workspaceId: string, staleBefore: string): Promise<GraphFingerprint>;
}

/**
 * The writes of one Markdown import (docs/decisions/064-markdown-import.md), all checked by core
 * before they get here.
 */
export interface TopicImportBatch {
  workspaceId: string;
  /** New topics (version 1), each with its `topic.created` event; their slugs must be free. */
  inserts: TopicWrite[];
  /** Version-checked changes of existing topics (slugs and anchors unchanged). */
  updates: TopicWrite[];
  /** Suggested edits opened on reviewed topics. */
  proposals: Proposal[];
  /** Between topics of the batch or existing ones; one the workspace already has (same `relationKey`) is passed over. */
  relations: Relation[];
}

/** Why a batch was not applied (nothing of it was): a concurrent write got there first. */
export type TopicImportRefusal =
  | { refused: "slug_taken"; slug: string }
  | { refused: "version_conflict"; slug: string }
  | { refused: "topic_gone"; topicId: string };

/** Where a backend with transactions applies an import as one. */
export interface TopicImportStore {
  /** Applies every write of `batch`, or none of them (a refusal, or a throw). */
  apply(batch: TopicImportBatch): Promise<"ok" | TopicImportRefusal>;
}

/** Topics' stores, suggested edits and relations included, one bundle per adapter (adapters/<adapter>/topics/). */
export interface TopicStores {
  topics: TopicStore;
  tags: TagStore;
  proposals: ProposalStore;
  relations: RelationStore;
  /**
   * All-or-nothing imports, where the backend can (memory, PostgreSQL, PGlite). Without it
   * (MongoDB), core writes the parts of an import one by one and running it again completes it.
   */
  topicImports?: TopicImportStore;
}

/** What Topics' use cases are given: its own stores and those of other modules it reads (ADR 019). */
export type TopicDeps = CoreDeps<TopicStores & WorkspaceStores> & {
  /** The plan-limits gate (billing's `planLimitsGate`); without it nothing is counted or refused. */
  capacity?: CapacityGate;
  /**
   * Code context's part in topic answers (`codeContextHooks`); without it, topics carry no
   * `anchor_validation` and an empty `orphaned_anchors`.
   */
  anchorReports?: AnchorReports;
};
