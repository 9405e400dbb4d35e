import { isUuid } from "../../../core/kernel/ids.ts";
import type { RepoIndex, RepoIndexHead, RepoIndexStore } from "../../../core/code-context/ports.ts";
import { FOREIGN_KEY_VIOLATION, iso, type SqlDriver, sqlState } from "../driver.ts";
import type { Row } from "../row-values.ts";

const HEAD_COLUMNS = "workspace_id, repo_id, commit_sha, file_count, refreshed_at";

function toHead(r: Row): RepoIndexHead {
  return {
    workspace_id: r.workspace_id as string,
    repo_id: r.repo_id as string,
    commit: r.commit_sha as string,
    file_count: Number(r.file_count),
    refreshed_at: iso(r.refreshed_at),
  };
}

/** One row per repo; the file list is one `text[]` value (migrations/006-code-index.ts). */
export class PostgresRepoIndexStore implements RepoIndexStore {
  constructor(private readonly db: SqlDriver) {}

  async get(workspaceId: string, repoId: string): Promise<RepoIndex | null> {
    if (!isUuid(workspaceId) || !isUuid(repoId)) return null;
    const rows = await this.db.query<Row>(`select ${HEAD_COLUMNS}, files from repo_indexes where workspace_id = $1 and repo_id = $2`, [
      workspaceId,
      repoId,
    ]);
    const r = rows[0];
    if (!r) return null;
    const { file_count: _, ...head } = toHead(r);
    return { ...head, files: r.files as string[] };
  }

  /** Reads no column of the list, so PostgreSQL never fetches it from out-of-line storage. */
  async head(workspaceId: string, repoId: string): Promise<RepoIndexHead | null> {
    if (!isUuid(workspaceId) || !isUuid(repoId)) return null;
    const rows = await this.db.query<Row>(`select ${HEAD_COLUMNS} from repo_indexes where workspace_id = $1 and repo_id = $2`, [
      workspaceId,
      repoId,
    ]);
    return rows[0] ? toHead(rows[0]) : null;
  }

  async put(i: RepoIndex): Promise<boolean> {
    if (!isUuid(i.workspace_id) || !isUuid(i.repo_id)) return false;
    try {
      const rows = await this.db.query(
        `insert into repo_indexes (workspace_id, repo_id, commit_sha, files, file_count, refreshed_at)
         select $1::uuid, $2::uuid, $3::text, $4::text[], $5::int, $6::timestamptz
         where exists (select 1 from repos where workspace_id = $1 and id = $2)
         on conflict (workspace_id, repo_id) do update
           set commit_sha = excluded.commit_sha, files = excluded.files, file_count = excluded.file_count, refreshed_at = excluded.refreshed_at
         returning repo_id`,
        [i.workspace_id, i.repo_id, i.commit, i.files, i.files.length, i.refreshed_at],
      );
      return rows.length === 1;
    } catch (e) {
      // The repo was deleted between the check and the foreign key's.
      if (sqlState(e) === FOREIGN_KEY_VIOLATION) return false;
      throw e;
    }
  }
}
