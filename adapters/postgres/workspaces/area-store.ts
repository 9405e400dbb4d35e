import type { OffsetPage } from "../../../core/kernel/paging.ts";
import type { Area } from "../../../core/workspaces/model.ts";
import type { AreaStore, Listed } from "../../../core/workspaces/ports.ts";
import { isUuid } from "../../../core/kernel/ids.ts";
import { type SqlDriver, sqlState, UNIQUE_VIOLATION } from "../driver.ts";
import { listPage, pageParams } from "../listing.ts";
import { AREA_COLUMNS, toArea } from "./rows.ts";
import { type Row } from "../row-values.ts";

export class PostgresAreaStore implements AreaStore {
  constructor(private readonly db: SqlDriver) {}

  list(workspaceId: string, page: OffsetPage): Promise<Listed<Area>> {
    if (!isUuid(workspaceId)) return Promise.resolve({ items: [], total: 0 });
    return listPage(this.db, {
      page: `select ${AREA_COLUMNS} from areas where workspace_id = $1
             order by created_at, id limit $2 offset $3`,
      count: `select count(*)::int as total from areas where workspace_id = $1`,
      order: "page.created_at, page.id",
      params: [workspaceId, ...pageParams(page)],
      map: toArea,
    });
  }

  async get(workspaceId: string, areaId: string): Promise<Area | null> {
    if (!isUuid(workspaceId) || !isUuid(areaId)) return null;
    const rows = await this.db.query<Row>(`select ${AREA_COLUMNS} from areas where workspace_id = $1 and id = $2`, [
      workspaceId,
      areaId,
    ]);
    return rows[0] ? toArea(rows[0]) : null;
  }

  async insert(a: Area): Promise<"ok" | "name_taken"> {
    const rows = await this.db.query(
      `insert into areas (workspace_id, id, name, description, created_at, updated_at)
       values ($1, $2, $3, $4, $5, $6)
       on conflict (workspace_id, name) do nothing
       returning id`,
      [a.workspace_id, a.id, a.name, a.description, a.created_at, a.updated_at],
    );
    return rows.length > 0 ? "ok" : "name_taken";
  }

  async update(a: Area): Promise<"ok" | "name_taken" | "not_found"> {
    if (!isUuid(a.workspace_id) || !isUuid(a.id)) return "not_found";
    try {
      const rows = await this.db.query(
        `update areas set name = $3, description = $4, updated_at = $5
         where workspace_id = $1 and id = $2
         returning id`,
        [a.workspace_id, a.id, a.name, a.description, a.updated_at],
      );
      return rows.length > 0 ? "ok" : "not_found";
    } catch (e) {
      // A single statement outside any transaction: the violation rolled back only itself.
      if (sqlState(e) === UNIQUE_VIOLATION) return "name_taken";
      throw e;
    }
  }

  async delete(workspaceId: string, areaId: string): Promise<boolean> {
    if (!isUuid(workspaceId) || !isUuid(areaId)) return false;
    const rows = await this.db.query(`delete from areas where workspace_id = $1 and id = $2 returning id`, [
      workspaceId,
      areaId,
    ]);
    return rows.length > 0;
  }
}
