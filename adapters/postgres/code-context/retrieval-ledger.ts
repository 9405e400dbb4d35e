import { isUuid } from "../../../core/kernel/ids.ts";
import type { Delivery, RetrievalLedger } from "../../../core/code-context/ports.ts";
import type { SqlDriver } from "../driver.ts";

export class PostgresRetrievalLedger implements RetrievalLedger {
  constructor(private readonly db: SqlDriver) {}

  async delivered(workspaceId: string, sessionId: string, topicIds: readonly string[], since: string): Promise<Map<string, number>> {
    const ids = topicIds.filter(isUuid);
    if (!isUuid(workspaceId) || ids.length === 0) return new Map();
    const rows = await this.db.query<{ topic_id: string; version: number }>(
      `select topic_id, version from retrieval_deliveries
       where workspace_id = $1 and session_id = $2 and topic_id = any($3::uuid[]) and delivered_at >= $4`,
      [workspaceId, sessionId, ids, since],
    );
    return new Map(rows.map((r) => [String(r.topic_id), Number(r.version)]));
  }

  async record(workspaceId: string, sessionId: string, deliveries: readonly Delivery[], at: string, forgetBefore: string): Promise<void> {
    if (!isUuid(workspaceId)) return;
    await this.db.transaction(async (tx) => {
      await tx.query(`delete from retrieval_deliveries where workspace_id = $1 and delivered_at < $2`, [workspaceId, forgetBefore]);
      if (deliveries.length === 0) return;
      await tx.query(
        `insert into retrieval_deliveries (workspace_id, session_id, topic_id, version, delivered_at)
         select $1, $2, d.topic_id, d.version, $5 from unnest($3::uuid[], $4::int[]) as d (topic_id, version)
         on conflict (workspace_id, session_id, topic_id) do update set version = excluded.version, delivered_at = excluded.delivered_at`,
        [workspaceId, sessionId, deliveries.map((d) => d.topic_id), deliveries.map((d) => d.version), at],
      );
    });
  }
}
