import type { OffsetPage } from "../../../core/kernel/paging.ts";
import type { SupportConversation, SupportNotification, SupportState } from "../../../core/support-desk/model.ts";
import type { SupportLogStore, SupportRecordOutcome } from "../../../core/support-desk/ports.ts";
import { FOREIGN_KEY_VIOLATION, iso, type SqlDriver, sqlState } from "../driver.ts";
import { listPage, pageParams } from "../listing.ts";
import type { Row } from "../row-values.ts";

const COLUMNS = "id, state, title, last_topic, events, updated_at";

export const conversation = (r: Row): SupportConversation => ({
  id: String(r.id),
  state: r.state as SupportState,
  title: (r.title as string | null) ?? null,
  last_topic: String(r.last_topic),
  events: Number(r.events),
  updated_at: iso(r.updated_at),
});

/**
 * Tables `support_conversations` and `support_notifications` (migration 019). A record is one
 * statement: the notification's insert (its primary key refuses a second) feeds the upsert of its
 * conversation, whose `on conflict do update` runs on the locked row, so concurrent notifications
 * of one conversation queue and each adds its event. The merge is `applyNotification`'s.
 */
export class PostgresSupportLogStore implements SupportLogStore {
  constructor(private db: SqlDriver) {}

  async record(workspaceId: string, n: SupportNotification, receivedAt: string): Promise<SupportRecordOutcome> {
    let rows: Row[];
    try {
      rows = await this.db.query<Row>(
        `with n as (
           insert into support_notifications (workspace_id, notification_id, conversation_id, received_at)
           values ($1, $2, $3, $8::timestamptz)
           on conflict (workspace_id, notification_id) do nothing
           returning workspace_id
         )
         insert into support_conversations as c (workspace_id, id, state, title, last_topic, events, updated_at)
         select $1, $3, coalesce($4::text, 'open'), $5::text, $6, 1, $7::timestamptz from n
         on conflict (workspace_id, id) do update set
           events = c.events + 1,
           state = case when excluded.updated_at >= c.updated_at then coalesce($4, c.state) else c.state end,
           title = case when excluded.updated_at >= c.updated_at then coalesce($5, c.title) else coalesce(c.title, $5) end,
           last_topic = case when excluded.updated_at >= c.updated_at then excluded.last_topic else c.last_topic end,
           updated_at = greatest(c.updated_at, excluded.updated_at)
         returning ${COLUMNS}`,
        [workspaceId, n.notification_id, n.conversation_id, n.state, n.title, n.topic, n.occurred_at, receivedAt],
      );
    } catch (e) {
      if (sqlState(e) === FOREIGN_KEY_VIOLATION) return { outcome: "no_workspace" };
      throw e;
    }
    return rows.length === 1 ? { outcome: "recorded", conversation: conversation(rows[0]!) } : { outcome: "duplicate" };
  }

  async get(workspaceId: string, conversationId: string): Promise<SupportConversation | null> {
    const rows = await this.db.query<Row>(`select ${COLUMNS} from support_conversations where workspace_id = $1 and id = $2`, [
      workspaceId,
      conversationId,
    ]);
    return rows[0] ? conversation(rows[0]) : null;
  }

  list(workspaceId: string, page: OffsetPage): Promise<{ items: SupportConversation[]; total: number }> {
    const [limit, offset] = pageParams(page);
    return listPage(this.db, {
      page: `select ${COLUMNS} from support_conversations where workspace_id = $1
             order by updated_at desc, id collate "C" desc limit $2 offset $3`,
      count: "select count(*)::int as total from support_conversations where workspace_id = $1",
      order: `page.updated_at desc, page.id collate "C" desc`,
      params: [workspaceId, limit, offset],
      map: conversation,
    });
  }
}
