import type { ApprovedVia, ReadOptions, Topic, TopicStatus, TopicStores } from "../topics/mod.ts";
import type { WebhookStores } from "../webhooks/mod.ts";
import type { Repo, WorkspaceStores } from "../workspaces/mod.ts";
import type { CoreDeps } from "../kernel/deps.ts";

/**
 * The file index of a linked repo: the paths of its default branch at one commit, kept so anchor
 * validation and orphan detection never ask the code host on a request path. Refreshed by the
 * `repo.index` job (repo-index.ts); one row per repo, replaced whole.
 */
export interface RepoIndex {
  workspace_id: string;
  repo_id: string;
  /** The commit the list was read at. */
  commit: string;
  /** Repo-relative paths, sorted by code unit (as `Array.prototype.sort` orders strings). */
  files: string[];
  refreshed_at: string;
}

/** An index without its file list: cheap to read on every request. */
export type RepoIndexHead = Omit<RepoIndex, "files"> & { file_count: number };

export interface RepoIndexStore {
  /** The index of a repo, or null when it has none yet (or the repo is not in the workspace). */
  get(workspaceId: string, repoId: string): Promise<RepoIndex | null>;
  /** The same without the file list: one small row. */
  head(workspaceId: string, repoId: string): Promise<RepoIndexHead | null>;
  /**
   * Replaces the repo's index (the file list is stored as one value: a `text[]`, an array field).
   * Writes nothing, and returns false, when the repo does not exist (any more) in the workspace.
   * An index goes with its repo and its workspace.
   */
  put(index: RepoIndex): Promise<boolean>;
}

/**
 * The code-host port: what core needs to know about a linked repository's code. Today one
 * adapter reads repositories with the `git` command line (adapters/git/); a hosted provider's API
 * (GitHub, GitLab) can implement the same port later without core changing.
 */
export interface CodeHost {
  /**
   * The files of `repo`'s default branch (`repo.default_branch`) at its newest commit: repo-relative
   * paths with `/` separators, sorted. Throws a `CodeHostError` when the repo cannot be read.
   */
  listFiles(repo: Repo): Promise<{ commit: string; files: string[] }>;
  /**
   * Why this host will never read `repo`'s source (a local path outside the operator's roots, a
   * host on a private address, a malformed URL), or null. Asked before a repo is linked, so such
   * a link is refused (400) instead of failing in the background; `listFiles` checks again on
   * every read. What cannot be read only now (a name that does not resolve) is null. A host that
   * reads neither the server's disk nor the network may leave it out.
   */
  refusal?(repo: Pick<Repo, "provider" | "full_name" | "clone_url">): Promise<string | null>;
}

/** Why a code host could not read a repo. */
export const CODE_HOST_FAILURES = ["invalid_url", "not_allowed", "unreachable", "no_branch", "timeout", "too_large"] as const;
export type CodeHostFailure = (typeof CODE_HOST_FAILURES)[number];

/** The typed error a `CodeHost` throws; `message` is safe to show to the workspace (no credentials). */
export class CodeHostError extends Error {
  readonly reason: CodeHostFailure;
  constructor(reason: CodeHostFailure, message: string) {
    super(message);
    this.name = "CodeHostError";
    this.reason = reason;
  }
}

export function isCodeHostError(e: unknown): e is CodeHostError {
  return e instanceof CodeHostError;
}

/**
 * The glob matcher port. Anchors have picomatch semantics; core does not import picomatch (it
 * imports TypeBox and itself only), so the host gives it a matcher (adapters/glob/).
 */
export interface PathMatcher {
  /** A predicate for one pattern; throws on a pattern the matcher cannot parse. */
  compile(pattern: string): (path: string) => boolean;
}

/**
 * What a retrieval session has already been given, so `POST /topics/retrieve` does not fill an
 * agent's context twice. Keyed by (workspace, session, topic); the version says which text went.
 */
export interface Delivery {
  topic_id: string;
  version: number;
}

export interface RetrievalLedger {
  /** Of `topicIds`, those delivered in the session at or after `since`, with the version sent. */
  delivered(workspaceId: string, sessionId: string, topicIds: readonly string[], since: string): Promise<Map<string, number>>;
  /** Records deliveries (replacing earlier ones of the same topic) and forgets the workspace's deliveries before `forgetBefore`. */
  record(workspaceId: string, sessionId: string, deliveries: readonly Delivery[], at: string, forgetBefore: string): Promise<void>;
}

/** A topic's anchors as the anchor index keeps them. */
export interface TopicAnchors {
  id: string;
  repo_id: string | null;
  anchors: string[];
}

/**
 * The anchors of a workspace's topics under a version, so that a server may keep them compiled
 * between requests (anchor-index.ts, ADR 038). A store's **anchor version** of a workspace changes
 * in the same transaction as every write that inserts a topic with anchors or changes a topic's
 * anchors or repo; any other write (status, body, drift, deletion) may leave it as it is, since
 * the topics matched are read again on every request. Versions are opaque: only equality counts.
 */
export interface AnchorIndexStore {
  /**
   * Every topic of the workspace with at least one anchor (archived ones too), with the anchor
   * version they are at, in one consistent read. Null when the store keeps no anchor version
   * (the caller then asks `TopicStore.anchoredAt` on every request).
   */
  load(workspaceId: string): Promise<{ version: string; topics: TopicAnchors[] } | null>;
  /**
   * The non-archived topics of `topicIds` (any order, at most 5,000 ids) and the workspace's
   * current anchor version, in one consistent read: the caller knows whether the anchors it
   * matched with are still those of the store.
   */
  read(workspaceId: string, topicIds: readonly string[], options?: ReadOptions): Promise<{ version: string; topics: Topic[] }>;
  /**
   * What match-files shows of the same topics (`read`'s: non-archived, of the workspace, at most
   * 5,000 distinct ids), in **match order** (`compareMatched`: trust rank, then drifted first, then
   * most recently updated, then id, all descending), with the current anchor version, in one
   * consistent read. `stale`: reviewed and approved before `staleBefore` (an ISO instant,
   * `staleBefore()`). Each head says its position in `topicIds` (`at`), so the caller joins it to
   * what it matched without a lookup by id.
   */
  heads(workspaceId: string, topicIds: readonly string[], staleBefore: string): Promise<{ version: string; topics: TopicHead[] }>;
}

/** A matched topic as match-files lists it (its trust verdict is `trustOf(status)`). */
export interface TopicHead {
  /** Its position in the ids `AnchorIndexStore.heads` was asked for. */
  at: number;
  id: string;
  slug: string;
  title: string;
  status: TopicStatus;
  drifted: boolean;
  stale: boolean;
  approved_via: ApprovedVia | null;
}

/**
 * A workspace's two versions, read together: the anchor version (`AnchorIndexStore`) and the topic
 * version, which moves in the same transaction as every write of one of its topics (any column,
 * deletion too; migrations/030-topic-versions.ts, ADR 047). Opaque decimal strings that only grow.
 */
export interface ReadVersions {
  anchors: string;
  topics: string;
}

/**
 * A matched topic as code context keeps it between requests (ADR 048): what match-files shows and
 * what retrieve ranks by, nothing that depends on the clock (`stale` is computed per request from
 * `approved_at`), so it holds as long as the topic version has not moved.
 */
export interface KeptHead {
  id: string;
  slug: string;
  title: string;
  status: TopicStatus;
  drifted: boolean;
  approved_via: ApprovedVia | null;
  /** `governance.approved_at`. */
  approved_at: string | null;
  updated_at: string;
  /** The topic's own version (retrieve's ledger compares it). */
  version: number;
}

/**
 * What code context ranks topics by, read under the workspace's versions so that a server may keep
 * it in memory (core/code-context/kept-heads.ts, ADR 048). A store without a topic version
 * (memory, MongoDB) answers `versions` with null, and code context then reads as before.
 */
export interface TopicHeadStore {
  /** The workspace's anchor and topic versions in one read; null when the store keeps no topic version. */
  versions(workspaceId: string): Promise<ReadVersions | null>;
  /**
   * The heads of the non-archived topics of `topicIds` (of the workspace; any order; at most
   * 5,000 ids), each with its position in `topicIds` (`at`), and the versions, in one consistent read.
   */
  heads(
    workspaceId: string,
    topicIds: readonly string[],
  ): Promise<{ versions: ReadVersions | null; heads: Array<KeptHead & { at: number }> }>;
  /**
   * Per topic of `topicIds` (of the workspace, any status), the weight of each of `terms` in it,
   * in the order of `terms`: `FIELD_WEIGHT.title` when its title holds the term (as `topicTerms`
   * tokenizes), else `.tags` when its tags do, else `.body` when its body does, else 0. Topics not
   * found are left out. With the versions, in one consistent read: what search scores a topic by,
   * without sending its body.
   */
  termWeights(
    workspaceId: string,
    topicIds: readonly string[],
    terms: readonly string[],
  ): Promise<{ versions: ReadVersions | null; weights: Map<string, number[]> }>;
}

/** Code context's stores, one bundle per adapter (adapters/<adapter>/code-context/). */
export interface CodeContextStores {
  repoIndex: RepoIndexStore;
  retrievals: RetrievalLedger;
  anchorIndex: AnchorIndexStore;
  topicHeads: TopicHeadStore;
}

/** What code context's use cases are given: its own stores and those of other modules it reads (ADR 019). */
export type CodeContextDeps = CoreDeps<CodeContextStores & TopicStores & WorkspaceStores & WebhookStores> & {
  /** Reads linked repos' files (adapters/git/); without it, repos get no file index. */
  codeHost?: CodeHost;
  /** The glob matcher of anchors (adapters/glob/); match-files and drift fail without it. */
  paths?: PathMatcher;
};
