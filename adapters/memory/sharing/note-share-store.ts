import type { WorkspaceTables } from "../workspaces/mod.ts";
import type { TopicTables } from "../topics/mod.ts";
import type { SharingTables } from "./tables.ts";
import type { OffsetPage } from "../../../core/kernel/paging.ts";
import type { NoteShare, TopicBrief } from "../../../core/sharing/model.ts";
import type { InboxFilter, InboxItem, NoteShareStore } from "../../../core/sharing/ports.ts";
import type { Topic } from "../../../core/topics/model.ts";
import type { Listed } from "../../../core/workspaces/ports.ts";
import { copy, inWorkspace } from "../rows.ts";

const newestFirst = (a: NoteShare, b: NoteShare) =>
  a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : a.id < b.id ? 1 : a.id > b.id ? -1 : 0;

function brief(t: Topic): TopicBrief {
  return { id: t.id, slug: t.slug, title: t.title, status: t.status, approved_at: t.governance.approved_at, drifted: t.drift !== null };
}

/** The reference NoteShareStore. */
export class MemoryNoteShareStore implements NoteShareStore {
  constructor(private t: WorkspaceTables & TopicTables & SharingTables) {}

  private item(share: NoteShare): InboxItem | null {
    const topic = this.t.topics.get(share.topic_id);
    return topic && topic.workspace_id === share.workspace_id ? { share: copy(share), topic: brief(topic) } : null;
  }

  async insert(shares: NoteShare[]): Promise<void> {
    for (const s of shares) {
      const member = this.t.members.get(s.recipient_member_id);
      if (member && member.workspace_id === s.workspace_id) this.t.noteShares.set(s.id, copy(s));
    }
  }

  async inbox(workspaceId: string, recipientMemberId: string, filter: InboxFilter, p: OffsetPage): Promise<Listed<InboxItem>> {
    const rows = inWorkspace(this.t.noteShares, workspaceId)
      .filter((s) => s.recipient_member_id === recipientMemberId && (filter.unread === undefined || (s.read_at === null) === filter.unread))
      .sort(newestFirst);
    const items = rows.slice(p.offset, p.offset + p.limit).flatMap((s) => this.item(s) ?? []);
    return { items, total: rows.length };
  }

  async markRead(workspaceId: string, recipientMemberId: string, shareId: string, at: string): Promise<InboxItem | null> {
    const s = this.t.noteShares.get(shareId);
    if (!s || s.workspace_id !== workspaceId || s.recipient_member_id !== recipientMemberId) return null;
    if (s.read_at === null) s.read_at = at;
    return this.item(s);
  }

  async markAllRead(workspaceId: string, recipientMemberId: string, at: string): Promise<number> {
    let n = 0;
    for (const s of inWorkspace(this.t.noteShares, workspaceId)) {
      if (s.recipient_member_id !== recipientMemberId || s.read_at !== null) continue;
      s.read_at = at;
      n++;
    }
    return n;
  }
}
