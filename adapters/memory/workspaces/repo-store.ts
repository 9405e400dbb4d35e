import type { WorkspaceTables } from "./tables.ts";
import type { CodeContextTables } from "../code-context/mod.ts";
import type { OffsetPage } from "../../../core/kernel/paging.ts";
import type { Listed, RepoStore } from "../../../core/workspaces/ports.ts";
import type { Repo } from "../../../core/workspaces/model.ts";
import { byCreated, copy, inWorkspace, page } from "../rows.ts";

export class MemoryRepoStore implements RepoStore {
  constructor(private t: WorkspaceTables & CodeContextTables) {}

  async list(workspaceId: string, p: OffsetPage): Promise<Listed<Repo>> {
    return page(inWorkspace(this.t.repos, workspaceId).sort(byCreated), p.offset, p.limit);
  }

  async get(workspaceId: string, repoId: string): Promise<Repo | null> {
    const r = this.t.repos.get(repoId);
    return r && r.workspace_id === workspaceId ? copy(r) : null;
  }

  async insert(repo: Repo): Promise<"ok" | "taken"> {
    const taken = inWorkspace(this.t.repos, repo.workspace_id).some(
      (r) => r.provider === repo.provider && r.full_name === repo.full_name,
    );
    if (taken) return "taken";
    this.t.repos.set(repo.id, copy(repo));
    return "ok";
  }

  async delete(workspaceId: string, repoId: string): Promise<boolean> {
    if (!(await this.get(workspaceId, repoId))) return false;
    this.t.repoIndexes.delete(repoId);
    return this.t.repos.delete(repoId);
  }

  async findByFullName(fullName: string, limit: number): Promise<Repo[]> {
    const rows: Repo[] = [];
    for (const r of this.t.repos.values()) if (r.full_name === fullName) rows.push(r);
    return rows.sort(byCreated).slice(0, Math.max(0, limit)).map(copy);
  }
}
