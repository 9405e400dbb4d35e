import { isUuid } from "../../../core/kernel/ids.ts";
import type { RadarMonitor } from "../../../core/radar/model.ts";
import type { MonitorStore } from "../../../core/radar/ports.ts";
import type { SqlDriver } from "../driver.ts";
import { json, type Row } from "../row-values.ts";

/**
 * Monitors (migration 011): jsonb documents beside the columns their queries use; `updateMonitor`
 * is one compare-and-set statement on `version`.
 */
const doc = <T>(r: Row): T => r.doc as T;

export class PostgresMonitorStore implements MonitorStore {
  constructor(private readonly db: SqlDriver) {}

  async insertMonitor(m: RadarMonitor): Promise<void> {
    await this.db.query(
      `insert into radar_monitors (workspace_id, id, search_id, state, next_run_at, version, doc) values ($1, $2, $3, $4, $5, $6, $7::text::jsonb)`,
      [m.workspace_id, m.id, m.search_id, m.state, m.next_run_at, m.version, json(m)],
    );
  }

  async getMonitor(workspaceId: string, id: string): Promise<RadarMonitor | null> {
    if (!isUuid(workspaceId) || !isUuid(id)) return null;
    const [row] = await this.db.query<Row>(`select doc from radar_monitors where workspace_id = $1 and id = $2`, [workspaceId, id]);
    return row ? doc(row) : null;
  }

  async monitorById(id: string): Promise<RadarMonitor | null> {
    if (!isUuid(id)) return null;
    const [row] = await this.db.query<Row>(`select doc from radar_monitors where id = $1`, [id]);
    return row ? doc(row) : null;
  }

  async monitorOfSearch(workspaceId: string, searchId: string): Promise<RadarMonitor | null> {
    if (!isUuid(workspaceId) || !isUuid(searchId)) return null;
    const [row] = await this.db.query<Row>(`select doc from radar_monitors where workspace_id = $1 and search_id = $2`, [
      workspaceId,
      searchId,
    ]);
    return row ? doc(row) : null;
  }

  async updateMonitor(next: RadarMonitor): Promise<"ok" | "version_conflict" | "not_found"> {
    if (!isUuid(next.workspace_id) || !isUuid(next.id)) return "not_found";
    const rows = await this.db.query<Row>(
      `update radar_monitors set state = $3, next_run_at = $4, version = $5, doc = $6::text::jsonb
       where workspace_id = $1 and id = $2 and version = $5 - 1 returning id`,
      [next.workspace_id, next.id, next.state, next.next_run_at, next.version, json(next)],
    );
    if (rows.length === 1) return "ok";
    const [cur] = await this.db.query<Row>(`select 1 from radar_monitors where workspace_id = $1 and id = $2`, [
      next.workspace_id,
      next.id,
    ]);
    return cur ? "version_conflict" : "not_found";
  }

  async dueMonitors(now: string, limit: number): Promise<RadarMonitor[]> {
    const rows = await this.db.query<Row>(
      `select doc from radar_monitors where state = 'active' and next_run_at is not null and next_run_at <= $1
       order by next_run_at, id limit $2`,
      [now, limit],
    );
    return rows.map(doc<RadarMonitor>);
  }
}
