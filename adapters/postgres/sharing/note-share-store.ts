import { isUuid } from "../../../core/kernel/ids.ts";
import type { OffsetPage } from "../../../core/kernel/paging.ts";
import type { NoteShare } from "../../../core/sharing/model.ts";
import type { InboxFilter, InboxItem, NoteShareStore } from "../../../core/sharing/ports.ts";
import type { TopicStatus } from "../../../core/topics/governance.ts";
import type { Listed } from "../../../core/workspaces/ports.ts";
import { iso, isoOrNull, type SqlDriver } from "../driver.ts";
import { listPage, pageParams } from "../listing.ts";
import { type Row, strOrNull } from "../row-values.ts";

function toItem(r: Row): InboxItem {
  return {
    share: {
      id: r.id as string,
      workspace_id: r.workspace_id as string,
      topic_id: r.topic_id as string,
      recipient_member_id: r.recipient_member_id as string,
      sender_id: strOrNull(r.sender_id),
      message: strOrNull(r.message),
      created_at: iso(r.created_at),
      read_at: isoOrNull(r.read_at),
    },
    topic: {
      id: r.topic_id as string,
      slug: r.t_slug as string,
      title: r.t_title as string,
      status: r.t_status as TopicStatus,
      approved_at: isoOrNull(r.t_approved_at),
      drifted: r.t_drifted as boolean,
    },
  };
}

const ITEM_COLUMNS = `s.id, s.workspace_id, s.topic_id, s.recipient_member_id, s.sender_id, s.message, s.created_at, s.read_at,
  t.slug as t_slug, t.title as t_title, t.status as t_status, t.approved_at as t_approved_at, t.drifted as t_drifted`;
const FROM_ITEMS = `from note_shares s join topics t on t.workspace_id = s.workspace_id and t.id = s.topic_id`;

export class PostgresNoteShareStore implements NoteShareStore {
  constructor(private readonly db: SqlDriver) {}

  async insert(shares: NoteShare[]): Promise<void> {
    if (shares.length === 0) return;
    const cols = (pick: (s: NoteShare) => unknown) => shares.map(pick);
    // One statement: all of them or none. A recipient removed meanwhile is skipped (the join),
    // as if the removal had come right after and cascaded.
    await this.db.query(
      `insert into note_shares (workspace_id, id, topic_id, recipient_member_id, sender_id, message, created_at, read_at)
       select n.workspace_id, n.id, n.topic_id, n.recipient_member_id, n.sender_id, n.message, n.created_at, n.read_at
       from unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::uuid[], $5::uuid[], $6::text[], $7::timestamptz[], $8::timestamptz[])
         as n (workspace_id, id, topic_id, recipient_member_id, sender_id, message, created_at, read_at)
       join members m on m.workspace_id = n.workspace_id and m.id = n.recipient_member_id`,
      [
        cols((s) => s.workspace_id),
        cols((s) => s.id),
        cols((s) => s.topic_id),
        cols((s) => s.recipient_member_id),
        cols((s) => s.sender_id),
        cols((s) => s.message),
        cols((s) => s.created_at),
        cols((s) => s.read_at),
      ],
    );
  }

  inbox(workspaceId: string, recipientMemberId: string, filter: InboxFilter, page: OffsetPage): Promise<Listed<InboxItem>> {
    if (!isUuid(workspaceId) || !isUuid(recipientMemberId)) return Promise.resolve({ items: [], total: 0 });
    const where = ["s.workspace_id = $1", "s.recipient_member_id = $2"];
    if (filter.unread !== undefined) where.push(filter.unread ? "s.read_at is null" : "s.read_at is not null");
    const [limit, offset] = pageParams(page);
    const filtered = `${FROM_ITEMS} where ${where.join(" and ")}`;
    return listPage(this.db, {
      page: `select ${ITEM_COLUMNS} ${filtered} order by s.created_at desc, s.id desc limit $3 offset $4`,
      count: `select count(*)::int as total ${filtered}`,
      order: "page.created_at desc, page.id desc",
      params: [workspaceId, recipientMemberId, limit, offset],
      map: toItem,
    });
  }

  async markRead(workspaceId: string, recipientMemberId: string, shareId: string, at: string): Promise<InboxItem | null> {
    if (!isUuid(workspaceId) || !isUuid(recipientMemberId) || !isUuid(shareId)) return null;
    const rows = await this.db.query<Row>(
      `with marked as (
         update note_shares set read_at = coalesce(read_at, $4)
         where workspace_id = $1 and id = $3 and recipient_member_id = $2
         returning *
       )
       select ${ITEM_COLUMNS} from marked s join topics t on t.workspace_id = s.workspace_id and t.id = s.topic_id`,
      [workspaceId, recipientMemberId, shareId, at],
    );
    return rows[0] ? toItem(rows[0]) : null;
  }

  async markAllRead(workspaceId: string, recipientMemberId: string, at: string): Promise<number> {
    if (!isUuid(workspaceId) || !isUuid(recipientMemberId)) return 0;
    const rows = await this.db.query<{ n: number }>(
      `with marked as (
         update note_shares set read_at = $3
         where workspace_id = $1 and recipient_member_id = $2 and read_at is null
         returning 1
       )
       select count(*)::int as n from marked`,
      [workspaceId, recipientMemberId, at],
    );
    return Number(rows[0]?.n ?? 0);
  }
}
