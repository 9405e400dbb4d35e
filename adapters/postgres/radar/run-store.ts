import { isUuid } from "../../../core/kernel/ids.ts";
import type { RadarRun, RadarSearch, ResultOutcome, RunResult, TraceStep } from "../../../core/radar/model.ts";
import type { ResultPage, RunStore } from "../../../core/radar/ports.ts";
import { iso, type SqlDriver, sqlState, UNIQUE_VIOLATION } from "../driver.ts";
import { json, type Row } from "../row-values.ts";

/**
 * Searches, runs, steps and results (migration 011). Runs are jsonb documents beside the columns
 * their queries use; `updateRun` is one compare-and-set statement on `version`.
 */
const doc = <T>(r: Row): T => r.doc as T;

export class PostgresRunStore implements RunStore {
  constructor(private readonly db: SqlDriver) {}

  async insertSearch(s: RadarSearch): Promise<void> {
    await this.db.query(`insert into radar_searches (workspace_id, id, doc) values ($1, $2, $3::text::jsonb)`, [
      s.workspace_id,
      s.id,
      json(s),
    ]);
  }

  async getSearch(workspaceId: string, id: string): Promise<RadarSearch | null> {
    if (!isUuid(workspaceId) || !isUuid(id)) return null;
    const [row] = await this.db.query<Row>(`select doc from radar_searches where workspace_id = $1 and id = $2`, [workspaceId, id]);
    return row ? doc(row) : null;
  }

  async insertRun(r: RadarRun): Promise<void> {
    await this.db.query(
      `insert into radar_runs (workspace_id, id, search_id, state, lease_until, updated_at, version, doc)
       values ($1, $2, $3, $4, $5, $6, $7, $8::text::jsonb)`,
      [r.workspace_id, r.id, r.search_id, r.state, r.lease_until, r.updated_at, r.version, json(r)],
    );
  }

  async getRun(workspaceId: string, id: string): Promise<RadarRun | null> {
    if (!isUuid(workspaceId) || !isUuid(id)) return null;
    const [row] = await this.db.query<Row>(`select doc from radar_runs where workspace_id = $1 and id = $2`, [workspaceId, id]);
    return row ? doc(row) : null;
  }

  async updateRun(next: RadarRun): Promise<"ok" | "version_conflict" | "not_found"> {
    if (!isUuid(next.workspace_id) || !isUuid(next.id)) return "not_found";
    const rows = await this.db.query<Row>(
      `update radar_runs set state = $3, lease_until = $4, updated_at = $5, version = $6, doc = $7::text::jsonb
       where workspace_id = $1 and id = $2 and version = $6 - 1 returning id`,
      [next.workspace_id, next.id, next.state, next.lease_until, next.updated_at, next.version, json(next)],
    );
    if (rows.length === 1) return "ok";
    const [cur] = await this.db.query<Row>(`select 1 from radar_runs where workspace_id = $1 and id = $2`, [next.workspace_id, next.id]);
    return cur ? "version_conflict" : "not_found";
  }

  async staleRuns(now: string, limit: number): Promise<RadarRun[]> {
    const rows = await this.db.query<Row>(
      `select doc from radar_runs where state in ('queued', 'running') and (lease_until is null or lease_until < $1)
       order by updated_at, id limit $2`,
      [now, limit],
    );
    return rows.map(doc<RadarRun>);
  }

  async appendStep(workspaceId: string, runId: string, step: Omit<TraceStep, "seq">): Promise<TraceStep> {
    // The next number in one statement; a concurrent append taking it first makes this one retry.
    for (;;) {
      try {
        const [row] = await this.db.query<Row>(
          `insert into radar_run_steps (workspace_id, run_id, seq, type, at, data)
           select $1, $2, coalesce(max(seq), 0) + 1, $3, $4, $5::text::jsonb from radar_run_steps where workspace_id = $1 and run_id = $2
           returning seq`,
          [workspaceId, runId, step.type, step.at, json(step.data)],
        );
        return { seq: Number(row!.seq), type: step.type, at: step.at, data: step.data };
      } catch (e) {
        if (sqlState(e) !== UNIQUE_VIOLATION) throw e;
      }
    }
  }

  async steps(workspaceId: string, runId: string, afterSeq: number, limit: number): Promise<TraceStep[]> {
    if (!isUuid(workspaceId) || !isUuid(runId)) return [];
    const rows = await this.db.query<Row>(
      `select seq, type, at, data from radar_run_steps where workspace_id = $1 and run_id = $2 and seq > $3 order by seq limit $4`,
      [workspaceId, runId, afterSeq, limit],
    );
    return rows.map((r) => ({ seq: Number(r.seq), type: r.type as string, at: iso(r.at), data: r.data as Record<string, unknown> }));
  }

  async claimResult(result: RunResult): Promise<{ claimed: true } | { claimed: false; existing: RunResult }> {
    for (;;) {
      const inserted = await this.db.query<Row>(
        `insert into radar_run_results (workspace_id, run_id, provider_id, position, outcome, doc)
         values ($1, $2, $3, $4, $5, $6::text::jsonb) on conflict do nothing returning provider_id`,
        [result.workspace_id, result.run_id, result.provider_id, result.position, result.outcome, json(result)],
      );
      if (inserted.length === 1) return { claimed: true };
      const [row] = await this.db.query<Row>(
        `select doc from radar_run_results where workspace_id = $1 and run_id = $2 and provider_id = $3`,
        [result.workspace_id, result.run_id, result.provider_id],
      );
      if (row) return { claimed: false, existing: doc(row) };
    }
  }

  async results(workspaceId: string, runId: string, afterPosition: number, limit: number): Promise<ResultPage> {
    if (!isUuid(workspaceId) || !isUuid(runId)) return { items: [], next: null };
    const rows = await this.db.query<Row>(
      `select doc from radar_run_results where workspace_id = $1 and run_id = $2 and position > $3 order by position limit $4`,
      [workspaceId, runId, afterPosition, limit + 1],
    );
    const items = rows.slice(0, limit).map(doc<RunResult>);
    return { items, next: rows.length > limit ? items.at(-1)!.position : null };
  }

  async countResults(workspaceId: string, runId: string): Promise<Record<ResultOutcome, number>> {
    const counts: Record<ResultOutcome, number> = { created: 0, updated: 0, unchanged: 0 };
    if (!isUuid(workspaceId) || !isUuid(runId)) return counts;
    const rows = await this.db.query<Row>(
      `select outcome, count(*)::int as n from radar_run_results where workspace_id = $1 and run_id = $2 group by outcome`,
      [workspaceId, runId],
    );
    for (const r of rows) counts[r.outcome as ResultOutcome] = Number(r.n);
    return counts;
  }
}
