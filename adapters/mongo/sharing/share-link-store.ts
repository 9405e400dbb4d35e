import { toWorkspace, type WorkspaceCollections } from "../workspaces/mod.ts";
import { TOPIC_FIELDS_ONLY, type TopicCollections, toTopic } from "../topics/mod.ts";
import type { SharingCollections } from "./collections.ts";
import type { ShareLink } from "../../../core/sharing/model.ts";
import type { ShareLinkStore, ShareMatch } from "../../../core/sharing/ports.ts";
import { backoff } from "../retry.ts";
import { isDuplicateKey } from "../duplicate-key.ts";
import { shareLinkDoc, shareLinkKey, toShareLink } from "./documents.ts";

/**
 * Sharing on MongoDB without transactions (ADR 005, ADR 008). A topic's link is one document
 * whose `_id` is the topic's, so a topic can never hold two: issuing replaces it (last writer
 * wins), revoking is a delete by `_id` (atomic everywhere: the next lookup misses). A link issued
 * while its topic was being deleted is taken back by whichever of the two writes comes second:
 * the deletion removes the topic's links after the topic, and `issue` checks the topic after
 * writing the link.
 */
const MAX_ATTEMPTS = 8;

export class MongoShareLinkStore implements ShareLinkStore {
  constructor(private readonly c: WorkspaceCollections & TopicCollections & SharingCollections) {}

  async issue(link: ShareLink): Promise<"ok" | "not_found"> {
    const doc = shareLinkDoc(link);
    for (let attempt = 0;; attempt++) {
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
