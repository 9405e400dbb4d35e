import type { WorkspaceCollections } from "../workspaces/mod.ts";
import type { CodeContextCollections } from "./collections.ts";
import type { RepoIndex, RepoIndexHead, RepoIndexStore } from "../../../core/code-context/ports.ts";

/** A repo's file index: `_id` is the repo id; the list is one array field, replaced whole. */
export interface RepoIndexDoc {
  _id: string;
  workspace_id: string;
  commit: string;
  files: string[];
  file_count: number;
  refreshed_at: string;
}

const toHead = (d: Omit<RepoIndexDoc, "files">): RepoIndexHead => ({
  workspace_id: d.workspace_id,
  repo_id: d._id,
  commit: d.commit,
  file_count: d.file_count,
  refreshed_at: d.refreshed_at,
});

export class MongoRepoIndexStore implements RepoIndexStore {
  constructor(private readonly c: WorkspaceCollections & CodeContextCollections) {}

  async get(workspaceId: string, repoId: string): Promise<RepoIndex | null> {
    const d = await this.c.repoIndexes.findOne({ _id: repoId, workspace_id: workspaceId });
    if (!d) return null;
    const { file_count: _, ...head } = toHead(d);
    return { ...head, files: d.files };
  }

  async head(workspaceId: string, repoId: string): Promise<RepoIndexHead | null> {
    const d = await this.c.repoIndexes.findOne({ _id: repoId, workspace_id: workspaceId }, { projection: { files: 0 } });
    return d ? toHead(d) : null;
  }

  /**
   * Replaces the document, then checks the repo is still there: a repo deleted meanwhile (its
   * delete removes the repo, then the index) cannot be left with an index, whichever ran first.
   */
  async put(i: RepoIndex): Promise<boolean> {
    const repo = { _id: i.repo_id, workspace_id: i.workspace_id };
    if (!(await this.c.repos.findOne(repo, { projection: { _id: 1 } }))) return false;
    const doc: RepoIndexDoc = {
      _id: i.repo_id,
      workspace_id: i.workspace_id,
      commit: i.commit,
      files: i.files,
      file_count: i.files.length,
      refreshed_at: i.refreshed_at,
    };
    await this.c.repoIndexes.replaceOne({ _id: i.repo_id }, doc, { upsert: true });
    if (await this.c.repos.findOne(repo, { projection: { _id: 1 } })) return true;
    await this.c.repoIndexes.deleteOne({ _id: i.repo_id });
    return false;
  }
}
