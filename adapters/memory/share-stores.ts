import type { OffsetPage } from "../../core/kernel/paging.ts";
import type { NoteShare, ShareLink, TopicBrief } from "../../core/sharing/model.ts";
import type { InboxFilter, InboxItem, NoteShareStore, ShareLinkStore, ShareMatch } from "../../core/sharing/ports.ts";
import type { Topic } from "../../core/topics/model.ts";
import type { Listed } from "../../core/workspaces/ports.ts";
import { copy, inWorkspace, type MemoryTables } from "./tables.ts";

const linkKey = (workspaceId: string, topicId: string) => `${workspaceId}:${topicId}`;

/** The reference ShareLinkStore: one link per topic, found by its token's hash. */
export class MemoryShareLinkStore implements ShareLinkStore {
  constructor(private t: MemoryTables) {}

  async issue(link: ShareLink): Promise<"ok" | "not_found"> {
    const topic = this.t.topics.get(link.topic_id);
    if (!topic || topic.workspace_id !== link.workspace_id) return "not_found";
    dropLink(this.t, link.workspace_id, link.topic_id);
    const key = linkKey(link.workspace_id, link.topic_id);
    this.t.shareLinks.set(key, copy(link));
    this.t.shareLinkKeyByHash.set(link.token_hash, key);
    return "ok";
  }

  async get(workspaceId: string, topicId: string): Promise<ShareLink | null> {
    const link = this.t.shareLinks.get(linkKey(workspaceId, topicId));
    return link ? copy(link) : null;
  }

  async revoke(workspaceId: string, topicId: string): Promise<boolean> {
    return dropLink(this.t, workspaceId, topicId);
  }

  async findByHash(tokenHash: string): Promise<ShareMatch | null> {
    const key = this.t.shareLinkKeyByHash.get(tokenHash);
    const link = key ? this.t.shareLinks.get(key) : undefined;
    if (!link) return null;
    const workspace = this.t.workspaces.get(link.workspace_id);
    const topic = this.t.topics.get(link.topic_id);
    if (!workspace || !topic || topic.workspace_id !== link.workspace_id) return null;
    return { link: copy(link), workspace: copy(workspace), topic: copy(topic) };
  }
}

function dropLink(t: MemoryTables, workspaceId: string, topicId: string): boolean {
  const key = linkKey(workspaceId, topicId);
  const link = t.shareLinks.get(key);
  if (!link) return false;
  t.shareLinks.delete(key);
  t.shareLinkKeyByHash.delete(link.token_hash);
  return true;
}

const newestFirst = (a: NoteShare, b: NoteShare) =>
  a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : a.id < b.id ? 1 : a.id > b.id ? -1 : 0;

function brief(t: Topic): TopicBrief {
  return { id: t.id, slug: t.slug, title: t.title, status: t.status, approved_at: t.governance.approved_at, drifted: t.drift !== null };
}

/** The reference NoteShareStore. */
export class MemoryNoteShareStore implements NoteShareStore {
  constructor(private t: MemoryTables) {}

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

/** Called where a topic is deleted: its link and the inbox entries sharing it go with it. */
export function dropTopicShares(t: MemoryTables, workspaceId: string, topicId: string): void {
  dropLink(t, workspaceId, topicId);
  for (const s of inWorkspace(t.noteShares, workspaceId)) if (s.topic_id === topicId) t.noteShares.delete(s.id);
}

/** Called where a member is removed: their inbox goes with the membership. */
export function dropMemberInbox(t: MemoryTables, workspaceId: string, memberId: string): void {
  for (const s of inWorkspace(t.noteShares, workspaceId)) if (s.recipient_member_id === memberId) t.noteShares.delete(s.id);
}

/** Called where a workspace is deleted. */
export function dropWorkspaceShares(t: MemoryTables, workspaceId: string): void {
  for (const link of inWorkspace(t.shareLinks, workspaceId)) dropLink(t, workspaceId, link.topic_id);
  for (const s of inWorkspace(t.noteShares, workspaceId)) t.noteShares.delete(s.id);
}
