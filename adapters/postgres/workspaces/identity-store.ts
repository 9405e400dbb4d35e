import type { Identity, Member, Workspace } from "../../../core/workspaces/model.ts";
import type { IdentityStore } from "../../../core/workspaces/ports.ts";
import { isUuid } from "../../../core/kernel/ids.ts";
import { type SqlDriver, sqlState, UNIQUE_VIOLATION } from "../driver.ts";
import { IDENTITY_COLUMNS, memberColumns, toIdentity, toMember, toWorkspace, workspaceColumns } from "./rows.ts";
import { type Row } from "../row-values.ts";

export class PostgresIdentityStore implements IdentityStore {
  constructor(private readonly db: SqlDriver) {}

  async getById(identityId: string): Promise<Identity | null> {
    if (!isUuid(identityId)) return null;
    const rows = await this.db.query<Row>(`select ${IDENTITY_COLUMNS} from identities where id = $1`, [identityId]);
    return rows[0] ? toIdentity(rows[0]) : null;
  }

  async getByEmail(email: string): Promise<Identity | null> {
    const rows = await this.db.query<Row>(`select ${IDENTITY_COLUMNS} from identities where email = $1`, [email]);
    return rows[0] ? toIdentity(rows[0]) : null;
  }

  async update(
    identityId: string,
    changes: { email?: string; name?: string | null },
    opts: { eventAt?: string } = {},
  ): Promise<Identity | "email_taken" | "stale" | null> {
    if (!isUuid(identityId)) return null;
    const eventAt = opts.eventAt ?? null;
    try {
      // One statement: the change and the event's time, unless a later event was applied (stale).
      const rows = await this.db.query<Row>(
        `update identities set email = coalesce($2, email), name = case when $3 then $4 else name end,
           provider_event_at = coalesce($5::timestamptz, provider_event_at)
         where id = $1 and ($5::timestamptz is null or provider_event_at is null or provider_event_at <= $5::timestamptz)
         returning ${IDENTITY_COLUMNS}`,
        [identityId, changes.email ?? null, changes.name !== undefined, changes.name ?? null, eventAt],
      );
      if (rows[0]) return toIdentity(rows[0]);
      if (eventAt === null) return null;
      return (await this.getById(identityId)) ? "stale" : null;
    } catch (e) {
      if (sqlState(e) === UNIQUE_VIOLATION) return "email_taken";
      throw e;
    }
  }

  async memberships(identityId: string, limit: number): Promise<Array<{ workspace: Workspace; member: Member }>> {
    if (!isUuid(identityId) || limit <= 0) return [];
    const rows = await this.db.query<Row>(
      `select ${memberColumns("m", "m_")}, ${workspaceColumns("w", "w_")}
       from members m join workspaces w on w.id = m.workspace_id
       where m.identity_id = $1
       order by m.created_at, m.id
       limit $2`,
      [identityId, Math.trunc(limit)],
    );
    return rows.map((r) => ({ workspace: toWorkspace(r, "w_"), member: toMember(r, "m_") }));
  }
}
