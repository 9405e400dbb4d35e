import type { WorkspaceCollections } from "./collections.ts";
import type { CodeContextCollections } from "../code-context/mod.ts";
import type { OffsetPage } from "../../../core/kernel/paging.ts";
import type { Repo } from "../../../core/workspaces/model.ts";
import type { Listed, RepoStore } from "../../../core/workspaces/ports.ts";
import { isDuplicateKey } from "../duplicate-key.ts";
import { listPage } from "../list-page.ts";
import { repoDoc, toRepo } from "./documents.ts";

export class MongoRepoStore implements RepoStore {
  constructor(private readonly c: WorkspaceCollections & CodeContextCollections) {}

  list(workspaceId: string, page: OffsetPage): Promise<Listed<Repo>> {
    return listPage(this.c.repos, { workspace_id: workspaceId }, { created_at: 1, _id: 1 }, page, toRepo);
  }

  async get(workspaceId: string, repoId: string): Promise<Repo | null> {
    const d = await this.c.repos.findOne({ _id: repoId, workspace_id: workspaceId });
    return d ? toRepo(d) : null;
  }

  /** The (workspace_id, provider, full_name) unique index decides, also between concurrent inserts. */
  async insert(repo: Repo): Promise<"ok" | "taken"> {
    try {
      await this.c.repos.insertOne(repoDoc(repo));
      return "ok";
    } catch (e) {
      if (isDuplicateKey(e)) return "taken";
      throw e;
    }
  }

  /** The repo first, then its file index (an index `put` meanwhile checks for the repo after writing). */
  async delete(workspaceId: string, repoId: string): Promise<boolean> {
    const r = await this.c.repos.deleteOne({ _id: repoId, workspace_id: workspaceId });
    if (r.deletedCount === 1) await this.c.repoIndexes.deleteOne({ _id: repoId, workspace_id: workspaceId });
    return r.deletedCount === 1;
  }

  /** Served by the `full_name_created` index, across workspaces. */
  async findByFullName(fullName: string, limit: number): Promise<Repo[]> {
    const n = Math.max(0, Math.trunc(limit));
    if (n === 0) return [];
    const docs = await this.c.repos.find({ full_name: fullName }).sort({ created_at: 1, _id: 1 }).limit(n).toArray();
    return docs.map(toRepo);
  }
}
