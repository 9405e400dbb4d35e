import type { WorkspaceTables } from "../workspaces/mod.ts";
import type { CodeContextTables } from "./tables.ts";
import type { RepoIndex, RepoIndexHead, RepoIndexStore } from "../../../core/code-context/ports.ts";

/** Repo file indexes, one per repo; they go with the repo (repo-store.ts) and the workspace. */
export class MemoryRepoIndexStore implements RepoIndexStore {
  constructor(private t: WorkspaceTables & CodeContextTables) {}

  private find(workspaceId: string, repoId: string): RepoIndex | null {
    const i = this.t.repoIndexes.get(repoId);
    return i && i.workspace_id === workspaceId ? i : null;
  }

  async get(workspaceId: string, repoId: string): Promise<RepoIndex | null> {
    const i = this.find(workspaceId, repoId);
    // The stored list is never mutated (put replaces it), so a shallow copy of the array is enough.
    return i ? { ...i, files: [...i.files] } : null;
  }

  async head(workspaceId: string, repoId: string): Promise<RepoIndexHead | null> {
    const i = this.find(workspaceId, repoId);
    return i
      ? { workspace_id: i.workspace_id, repo_id: i.repo_id, commit: i.commit, refreshed_at: i.refreshed_at, file_count: i.files.length }
      : null;
  }

  async put(index: RepoIndex): Promise<boolean> {
    const repo = this.t.repos.get(index.repo_id);
    if (!repo || repo.workspace_id !== index.workspace_id) return false;
    this.t.repoIndexes.set(index.repo_id, { ...index, files: [...index.files] });
    return true;
  }
}
