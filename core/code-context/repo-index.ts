import type { CodeContextDeps } from "./ports.ts";
import type { Repo, Workspace } from "../workspaces/mod.ts";
import { checkAnchors, orphanedAnchors, RepoFileList } from "./anchor-validation.ts";
import { type AnchorValidation, type Topic } from "../topics/mod.ts";
import { CodeHostError, isCodeHostError, type RepoIndex, type RepoIndexHead } from "./ports.ts";
import { repoIndexJob } from "./repo-index-job.ts";

/** The most files an index holds; a larger repo is refused (`too_large`) rather than half indexed. */
export const MAX_INDEXED_FILES = 200_000;
/** How long a request waits for a repo's first index when it has none yet. */
export const SYNC_INDEX_TIMEOUT_MS = 15_000;
/** After a failed first index, requests do not try again (and wait again) for this long. */
const FAILED_BUILD_BACKOFF_MS = 60_000;
/** Prepared file lists kept in process, by (repo, commit). */
const CACHED_LISTS = 8;

/**
 * In-process state per store: prepared file lists by (repo_id, commit), so validation and orphan
 * checks do not re-read and re-sort 50,000 paths on every request (an index at a commit never
 * changes); first builds in flight; recent first-build failures.
 */
interface IndexCache {
  lists: Map<string, RepoFileList>;
  building: Map<string, Promise<RepoIndexHead>>;
  failed: Map<string, { until: number; message: string }>;
}
const caches = new WeakMap<object, IndexCache>();

function cacheOf(deps: CodeContextDeps): IndexCache {
  let c = caches.get(deps.stores.repoIndex);
  if (!c) {
    c = { lists: new Map(), building: new Map(), failed: new Map() };
    caches.set(deps.stores.repoIndex, c);
  }
  return c;
}

function remember(c: IndexCache, key: string, list: RepoFileList): void {
  c.lists.delete(key);
  c.lists.set(key, list);
  while (c.lists.size > CACHED_LISTS) c.lists.delete(c.lists.keys().next().value!);
}

const headOf = (i: RepoIndex): RepoIndexHead => ({
  workspace_id: i.workspace_id,
  repo_id: i.repo_id,
  commit: i.commit,
  refreshed_at: i.refreshed_at,
  file_count: i.files.length,
});

/**
 * Reads the repo's default branch from the code host and replaces its file index: what the
 * `repo.index` job does. Throws a `CodeHostError` when the repo cannot be read (its index is then
 * left as it was). Returns null when the repo was deleted meanwhile.
 */
export async function refreshRepoIndex(deps: CodeContextDeps, repo: Repo): Promise<RepoIndexHead | null> {
  if (!deps.codeHost) throw new CodeHostError("not_allowed", "No code host is configured: repos cannot be indexed");
  const listed = await deps.codeHost.listFiles(repo);
  if (listed.files.length > MAX_INDEXED_FILES) {
    throw new CodeHostError("too_large", `Repo has ${listed.files.length} files: at most ${MAX_INDEXED_FILES} are indexed`);
  }
  const list = RepoFileList.of(listed.files);
  const index: RepoIndex = {
    workspace_id: repo.workspace_id,
    repo_id: repo.id,
    commit: listed.commit,
    files: [...list.files],
    refreshed_at: deps.clock.now().toISOString(),
  };
  if (!(await deps.stores.repoIndex.put(index))) return null;
  const c = cacheOf(deps);
  c.failed.delete(repo.id);
  remember(c, `${repo.id}@${index.commit}`, list);
  return headOf(index);
}

/** Queues a refresh of the repo's index, or runs it now when no job queue is configured. */
export async function requestRepoIndex(deps: CodeContextDeps, repo: Repo): Promise<"queued" | "done" | "failed"> {
  if (deps.jobs) {
    await deps.jobs.enqueue(repoIndexJob, repo.workspace_id, { repo_id: repo.id });
    return "queued";
  }
  if (!deps.codeHost) return "failed";
  try {
    await refreshRepoIndex(deps, repo);
    return "done";
  } catch {
    return "failed";
  }
}

export type LoadedIndex = { head: RepoIndexHead; list: RepoFileList } | { head: null; warning: string };

/**
 * The repo's prepared file list. A repo without an index yet gets one built now, once, within
 * `SYNC_INDEX_TIMEOUT_MS` (concurrent requests share that build; after a failure, requests say so
 * for a minute instead of waiting again).
 */
export async function loadFileList(deps: CodeContextDeps, workspaceId: string, repoId: string): Promise<LoadedIndex> {
  const c = cacheOf(deps);
  let head = await deps.stores.repoIndex.head(workspaceId, repoId);
  if (!head) {
    const built = await buildOnce(deps, c, workspaceId, repoId);
    if ("warning" in built) return { head: null, warning: built.warning };
    head = built.head;
  }
  const key = `${repoId}@${head.commit}`;
  const cached = c.lists.get(key);
  if (cached) return { head, list: cached };
  const index = await deps.stores.repoIndex.get(workspaceId, repoId);
  if (!index) return { head: null, warning: "The repo's file index is gone (the repo was removed)" };
  // The index may have moved on since `head`: key the list by the commit it really holds.
  const list = new RepoFileList(index.files);
  remember(c, `${repoId}@${index.commit}`, list);
  return { head: headOf(index), list };
}

async function buildOnce(
  deps: CodeContextDeps,
  c: IndexCache,
  workspaceId: string,
  repoId: string,
): Promise<{ head: RepoIndexHead } | { warning: string }> {
  const failed = c.failed.get(repoId);
  if (failed && failed.until > deps.clock.now().getTime()) return { warning: `The repo has no file index yet: ${failed.message}` };
  if (!deps.codeHost) return { warning: "The repo has no file index yet and no code host is configured to read it" };
  let pending = c.building.get(repoId);
  if (!pending) {
    pending = (async () => {
      const repo = await deps.stores.repos.get(workspaceId, repoId);
      if (!repo) throw new CodeHostError("not_allowed", "the repo was removed");
      const head = await refreshRepoIndex(deps, repo);
      if (!head) throw new CodeHostError("not_allowed", "the repo was removed");
      return head;
    })();
    c.building.set(repoId, pending);
    const clear = () => c.building.delete(repoId);
    pending.then(clear, clear);
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new CodeHostError("timeout", `reading it took longer than ${SYNC_INDEX_TIMEOUT_MS / 1000} s; it is still being read`)),
      SYNC_INDEX_TIMEOUT_MS,
    );
  });
  try {
    return { head: await Promise.race([pending, timeout]) };
  } catch (e) {
    const message = isCodeHostError(e) ? e.message : "it could not be read";
    if (!(isCodeHostError(e) && e.reason === "timeout")) {
      c.failed.set(repoId, { until: deps.clock.now().getTime() + FAILED_BUILD_BACKOFF_MS, message });
    }
    return { warning: `The repo has no file index yet: ${message}` };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `anchor_validation` of a topic: undefined when it has no repo. Advisory: every failure becomes a
 * warning, never an error, so it cannot block the write it reports on.
 */
export async function anchorValidationFor(deps: CodeContextDeps, ws: Workspace, topic: Topic): Promise<AnchorValidation | undefined> {
  if (!topic.repo_id) return undefined;
  const out: AnchorValidation = { repo_id: topic.repo_id, commit: null, file_count: null, refreshed_at: null, anchors: [], warnings: [] };
  try {
    if (!deps.paths) {
      out.warnings.push("Anchors cannot be checked: no path matcher is configured");
      return out;
    }
    if (topic.anchors.length === 0) {
      const head = await deps.stores.repoIndex.head(ws.id, topic.repo_id);
      if (head) Object.assign(out, { commit: head.commit, file_count: head.file_count, refreshed_at: head.refreshed_at });
      return out;
    }
    const loaded = await loadFileList(deps, ws.id, topic.repo_id);
    if (!loaded.head) {
      out.warnings.push(`${loaded.warning}; anchors were not checked`);
      return out;
    }
    Object.assign(out, { commit: loaded.head.commit, file_count: loaded.head.file_count, refreshed_at: loaded.head.refreshed_at });
    out.anchors = checkAnchors(loaded.list, topic.anchors, deps.paths);
    if (loaded.list.size === 0) out.warnings.push("The repo's default branch has no files");
  } catch (e) {
    out.warnings.push(`Anchors could not be checked: ${e instanceof Error ? e.message : String(e)}`);
  }
  return out;
}

/**
 * The topic's anchors that match no file of its repo's current index (`include_orphaned=true`).
 * A repo without an index is indexed first (once, bounded, as for validation); empty when the topic
 * has no repo or the repo cannot be read (nothing can be said then).
 */
export async function orphanedAnchorsFor(deps: CodeContextDeps, ws: Workspace, topic: Topic): Promise<string[]> {
  if (!topic.repo_id || topic.anchors.length === 0 || !deps.paths) return [];
  const loaded = await loadFileList(deps, ws.id, topic.repo_id);
  return loaded.head ? orphanedAnchors(loaded.list, topic.anchors, deps.paths) : [];
}
