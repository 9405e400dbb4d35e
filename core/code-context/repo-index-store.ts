/**
 * The file index of a linked repo: the paths of its default branch at one commit, kept so anchor
 * validation and orphan detection never ask the code host on a request path. Refreshed by the
 * `repo.index` job (core/topics/repo-index.ts); one row per repo, replaced whole.
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
