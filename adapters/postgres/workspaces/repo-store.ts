import type { OffsetPage } from "../../../core/kernel/paging.ts";
import type { Repo } from "../../../core/workspaces/model.ts";
import type { Listed, RepoStore } from "../../../core/workspaces/ports.ts";
import { isUuid } from "../../../core/kernel/ids.ts";
import type { SqlDriver } from "../driver.ts";
import { listPage, pageParams } from "../listing.ts";
import { REPO_COLUMNS, toRepo } from "./rows.ts";
import { type Row } from "../row-values.ts";

export class PostgresRepoStore implements RepoStore {
  constructor(private readonly db: SqlDriver) {}

  list(workspaceId: string, page: OffsetPage): Promise<Listed<Repo>> {
    if (!isUuid(workspaceId)) return Promise.resolve({ items: [], total: 0 });
    return listPage(this.db, {
      page: `select ${REPO_COLUMNS} from repos where workspace_id = $1
             order by created_at, id limit $2 offset $3`,
      count: `select count(*)::int as total from repos where workspace_id = $1`,
      order: "page.created_at, page.id",
      params: [workspaceId, ...pageParams(page)],
      map: toRepo,
    });
  }

  async get(workspaceId: string, repoId: string): Promise<Repo | null> {
    if (!isUuid(workspaceId) || !isUuid(repoId)) return null;
    const rows = await this.db.query<Row>(`select ${REPO_COLUMNS} from repos where workspace_id = $1 and id = $2`, [
      workspaceId,
      repoId,
    ]);
    return rows[0] ? toRepo(rows[0]) : null;
  }

  async insert(r: Repo): Promise<"ok" | "taken"> {
    const rows = await this.db.query(
      `insert into repos (workspace_id, id, provider, full_name, default_branch, clone_url, created_at)
       values ($1, $2, $3, $4, $5, $6, $7)
       on conflict (workspace_id, provider, full_name) do nothing
       returning id`,
      [r.workspace_id, r.id, r.provider, r.full_name, r.default_branch, r.clone_url, r.created_at],
    );
    return rows.length > 0 ? "ok" : "taken";
  }

  /** Served by `repos_full_name_idx` (migration 006), across workspaces. */
  async findByFullName(fullName: string, limit: number): Promise<Repo[]> {
    const rows = await this.db.query<Row>(`select ${REPO_COLUMNS} from repos where full_name = $1 order by created_at, id limit $2`, [
      fullName,
      Math.max(0, Math.trunc(limit)),
    ]);
    return rows.map(toRepo);
  }

  /** The repo's file index goes with it (foreign key, cascade). */
  async delete(workspaceId: string, repoId: string): Promise<boolean> {
    if (!isUuid(workspaceId) || !isUuid(repoId)) return false;
    const rows = await this.db.query(`delete from repos where workspace_id = $1 and id = $2 returning id`, [
      workspaceId,
      repoId,
    ]);
    return rows.length > 0;
  }
}
