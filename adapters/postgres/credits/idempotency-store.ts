import type { IdempotencyRecord } from "../../../core/credits/model.ts";
import type { IdempotencyBegin, IdempotencyStore } from "../../../core/credits/ports.ts";
import { iso, type SqlDriver } from "../driver.ts";
import { json, type Row } from "../row-values.ts";

/**
 * The primary key (workspace, scope, key) decides: the claim is an insert, or the update of an
 * expired or abandoned record that the same statement's `where` allows; of concurrent claims one
 * writes a row.
 */
export class PostgresIdempotencyStore implements IdempotencyStore {
  constructor(private readonly db: SqlDriver) {}

  async begin(r: IdempotencyRecord, staleBefore: string): Promise<IdempotencyBegin> {
    for (;;) {
      const claimed = await this.db.query(
        `insert into idempotency_keys (workspace_id, scope, key, fingerprint, state, status, body, created_at, expires_at)
         values ($1, $2, $3, $4, 'pending', null, null, $5, $6)
         on conflict (workspace_id, scope, key) do update
           set fingerprint = excluded.fingerprint, state = 'pending', status = null, body = null,
               created_at = excluded.created_at, expires_at = excluded.expires_at
           where idempotency_keys.expires_at <= excluded.created_at
              or (idempotency_keys.state = 'pending' and idempotency_keys.created_at < $7)
         returning key`,
        [r.workspace_id, r.scope, r.key, r.fingerprint, r.created_at, r.expires_at, staleBefore],
      );
      if (claimed.length === 1) return { kind: "started" };
      const [row] = await this.db.query<Row>(
        `select fingerprint, state, status, body, created_at, expires_at from idempotency_keys
         where workspace_id = $1 and scope = $2 and key = $3`,
        [r.workspace_id, r.scope, r.key],
      );
      // Abandoned between the two statements: claim again.
      if (!row) continue;
      if (row.fingerprint !== r.fingerprint) return { kind: "mismatch" };
      if (row.state === "pending") return { kind: "pending" };
      return {
        kind: "done",
        record: {
          ...r,
          state: "done",
          status: row.status as number,
          body: row.body,
          created_at: iso(row.created_at),
          expires_at: iso(row.expires_at),
        },
      };
    }
  }

  async finish(workspaceId: string, scope: string, key: string, answer: { status: number; body: unknown }): Promise<void> {
    await this.db.query(
      `update idempotency_keys set state = 'done', status = $4, body = $5::text::jsonb where workspace_id = $1 and scope = $2 and key = $3`,
      [workspaceId, scope, key, answer.status, json(answer.body)],
    );
  }

  async abandon(workspaceId: string, scope: string, key: string, fingerprint: string): Promise<void> {
    await this.db.query(
      `delete from idempotency_keys where workspace_id = $1 and scope = $2 and key = $3 and fingerprint = $4 and state = 'pending'`,
      [workspaceId, scope, key, fingerprint],
    );
  }
}
