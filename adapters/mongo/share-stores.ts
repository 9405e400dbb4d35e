/**
 * Sharing on MongoDB without transactions (ADR 005, ADR 008). A topic's link is one document
 * whose `_id` is the topic's, so a topic can never hold two: issuing replaces it (last writer
 * wins), revoking is a delete by `_id` (atomic everywhere: the next lookup misses). A link issued
 * while its topic was being deleted is taken back by whichever of the two writes comes second:
 * the deletion removes the topic's links after the topic, and `issue` checks the topic after
 * writing the link.
 */
import type { OffsetPage } from "../../core/kernel/paging.ts";
import type { NoteShare, ShareLink, TopicBrief } from "../../core/sharing/model.ts";
import type { InboxFilter, InboxItem, NoteShareStore, ShareLinkStore, ShareMatch } from "../../core/sharing/ports.ts";
import type { Listed } from "../../core/workspaces/ports.ts";
import { type MongoCollections, backoff, isDuplicateKey, toWorkspace } from "./documents.ts";
import { type NoteShareDoc, noteShareDoc, shareLinkDoc, shareLinkKey, toNoteShare, toShareLink } from "./share-documents.ts";
import { TOPIC_FIELDS_ONLY, toTopic } from "./topic-documents.ts";

const MAX_ATTEMPTS = 8;

export class MongoShareLinkStore implements ShareLinkStore {
  constructor(private readonly c: MongoCollections) {}

  async issue(link: ShareLink): Promise<"ok" | "not_found"> {
    const doc = shareLinkDoc(link);
    for (let attempt = 0; ; attempt++) {
      try {
        await this.c.shareLinks.replaceOne({ _id: doc._id }, doc, { upsert: true });
        break;
      } catch (e) {
        // Two upserts of one topic's first link: the other inserted; replace it on the next round.
        if (!isDuplicateKey(e) || attempt >= MAX_ATTEMPTS) throw e;
        await backoff(attempt);
      }
    }
    const topic = await this.c.topics.findOne({ _id: link.topic_id, workspace_id: link.workspace_id }, { projection: { _id: 1 } });
    if (!topic) {
      await this.c.shareLinks.deleteOne({ _id: doc._id, token_hash: link.token_hash });
      return "not_found";
    }
    return "ok";
  }

  async get(workspaceId: string, topicId: string): Promise<ShareLink | null> {
    const d = await this.c.shareLinks.findOne({ _id: shareLinkKey(workspaceId, topicId), workspace_id: workspaceId });
    return d ? toShareLink(d) : null;
  }

  async revoke(workspaceId: string, topicId: string): Promise<boolean> {
    const r = await this.c.shareLinks.deleteOne({ _id: shareLinkKey(workspaceId, topicId), workspace_id: workspaceId });
    return r.deletedCount === 1;
  }

  async findByHash(tokenHash: string): Promise<ShareMatch | null> {
    const d = await this.c.shareLinks.findOne({ token_hash: tokenHash });
    if (!d) return null;
    const [ws, topic] = await Promise.all([
      this.c.workspaces.findOne({ _id: d.workspace_id }),
      this.c.topics.findOne({ _id: d.topic_id, workspace_id: d.workspace_id }, { projection: TOPIC_FIELDS_ONLY }),
    ]);
    // A workspace being deleted loses its document first: its links stop answering at once.
    if (!ws || !topic) return null;
    return { link: toShareLink(d), workspace: toWorkspace(ws), topic: toTopic(topic) };
  }
}

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
  constructor(private readonly c: MongoCollections) {}

  /** The topics of some shares, by id. */
  private async briefs(workspaceId: string, shares: NoteShareDoc[]): Promise<Map<string, TopicBrief>> {
    const ids = [...new Set(shares.map((s) => s.topic_id))];
    if (ids.length === 0) return new Map();
    const docs = (await this.c.topics.find({ workspace_id: workspaceId, _id: { $in: ids } }, { projection: BRIEF_FIELDS }).toArray()) as unknown as BriefDoc[];
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
    for (let round = 0; ; round++) {
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
