import type { TopicCollections } from "../topics/mod.ts";
import type { SharingCollections } from "./collections.ts";
import type { OffsetPage } from "../../../core/kernel/paging.ts";
import type { NoteShare, TopicBrief } from "../../../core/sharing/model.ts";
import type { InboxFilter, InboxItem, NoteShareStore } from "../../../core/sharing/ports.ts";
import type { Listed } from "../../../core/workspaces/ports.ts";
import { type NoteShareDoc, noteShareDoc, toNoteShare } from "./documents.ts";

const BRIEF_FIELDS = { _id: 1, slug: 1, title: 1, status: 1, "governance.approved_at": 1, drift: 1 } as const;

interface BriefDoc {
  _id: string;
  slug: string;
  title: string;
  status: TopicBrief["status"];
  governance?: { approved_at?: string | null };
  drift?: unknown;
}

const toBrief = (d: BriefDoc): TopicBrief => ({
  id: d._id,
  slug: d.slug,
  title: d.title,
  status: d.status,
  approved_at: d.governance?.approved_at ?? null,
  drifted: d.drift !== null && d.drift !== undefined,
});

export class MongoNoteShareStore implements NoteShareStore {
  constructor(private readonly c: TopicCollections & SharingCollections) {}

  /** The topics of some shares, by id. */
  private async briefs(workspaceId: string, shares: NoteShareDoc[]): Promise<Map<string, TopicBrief>> {
    const ids = [...new Set(shares.map((s) => s.topic_id))];
    if (ids.length === 0) return new Map();
    const docs = (await this.c.topics.find({ workspace_id: workspaceId, _id: { $in: ids } }, { projection: BRIEF_FIELDS })
      .toArray()) as unknown as BriefDoc[];
    return new Map(docs.map((d) => [d._id, toBrief(d)]));
  }

  async insert(shares: NoteShare[]): Promise<void> {
    if (shares.length === 0) return;
    await this.c.noteShares.insertMany(shares.map(noteShareDoc), { ordered: true });
  }

  async inbox(workspaceId: string, recipientMemberId: string, filter: InboxFilter, page: OffsetPage): Promise<Listed<InboxItem>> {
    const q: Record<string, unknown> = { workspace_id: workspaceId, recipient_member_id: recipientMemberId };
    if (filter.unread !== undefined) q.read_at = filter.unread ? null : { $ne: null };
    const limit = Math.max(0, Math.trunc(page.limit));
    const offset = Math.max(0, Math.trunc(page.offset));
    for (let round = 0;; round++) {
      const [docs, total] = await Promise.all([
        limit === 0 ? Promise.resolve([]) : this.c.noteShares.find(q).sort({ created_at: -1, _id: -1 }).skip(offset).limit(limit).toArray(),
        this.c.noteShares.countDocuments(q),
      ]);
      const topics = await this.briefs(workspaceId, docs);
      const orphans = docs.filter((d) => !topics.has(d.topic_id));
      if (orphans.length === 0 || round > 0) {
        const items = docs.flatMap((d) => {
          const topic = topics.get(d.topic_id);
          return topic ? [{ share: toNoteShare(d), topic }] : [];
        });
        return { items, total };
      }
      // A topic deletion cut short before it removed its shares: finish that, then read again.
      await this.c.noteShares.deleteMany({ workspace_id: workspaceId, topic_id: { $in: [...new Set(orphans.map((d) => d.topic_id))] } });
    }
  }

  async markRead(workspaceId: string, recipientMemberId: string, shareId: string, at: string): Promise<InboxItem | null> {
    const mine = { _id: shareId, workspace_id: workspaceId, recipient_member_id: recipientMemberId };
    let d = await this.c.noteShares.findOne(mine);
    if (!d) return null;
    if (d.read_at === null || d.read_at === undefined) {
      // Plain update: concurrent marks may each write their own instant (ADR 005), all "read".
      await this.c.noteShares.updateOne({ ...mine, read_at: null }, { $set: { read_at: at } });
      d = await this.c.noteShares.findOne(mine);
      if (!d) return null;
    }
    const topic = (await this.briefs(workspaceId, [d])).get(d.topic_id);
    return topic ? { share: toNoteShare(d), topic } : null;
  }

  async markAllRead(workspaceId: string, recipientMemberId: string, at: string): Promise<number> {
    const r = await this.c.noteShares.updateMany(
      { workspace_id: workspaceId, recipient_member_id: recipientMemberId, read_at: null },
      { $set: { read_at: at } },
    );
    return r.modifiedCount;
  }
}
