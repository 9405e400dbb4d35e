import type { Session } from "../../../core/identity/model.ts";
import type { SessionStore } from "../../../core/identity/ports.ts";
import type { SqlDriver } from "../driver.ts";
import type { Row } from "../row-values.ts";
import { toSession } from "./rows.ts";

export class PostgresSessionStore implements SessionStore {
  constructor(private readonly db: SqlDriver) {}

  async insert(s: Session): Promise<void> {
    await this.db.query(`insert into auth_sessions (id, identity_id, created_at, expires_at) values ($1, $2, $3, $4)`, [
      s.id,
      s.identity_id,
      s.created_at,
      s.expires_at,
    ]);
  }

  async get(sessionId: string): Promise<Session | null> {
    const [row] = await this.db.query<Row>(`select id, identity_id, created_at, expires_at from auth_sessions where id = $1`, [sessionId]);
    return row ? toSession(row) : null;
  }

  async setExpiry(sessionId: string, expiresAt: string): Promise<void> {
    await this.db.query(`update auth_sessions set expires_at = $2 where id = $1`, [sessionId, expiresAt]);
  }

  async delete(sessionId: string): Promise<void> {
    await this.db.query(`delete from auth_sessions where id = $1`, [sessionId]);
  }

  async deleteAllOf(identityId: string): Promise<void> {
    await this.db.query(`delete from auth_sessions where identity_id = $1`, [identityId]);
  }
}
