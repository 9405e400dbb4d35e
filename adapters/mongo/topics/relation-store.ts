/** Relations without transactions: see proposal-store.ts and ADRs 005 and 009. */
import type { TopicCollections } from "./collections.ts";
import type { Filter } from "mongodb";
import type { GraphFingerprint, GraphNodeRow, Relation } from "../../../core/topics/model.ts";
import type { RelationStore } from "../../../core/topics/ports.ts";
import { isDuplicateKey } from "../duplicate-key.ts";
import { type RelationDoc, relationDoc, toRelation } from "./proposal-relation-documents.ts";
import type { TopicDoc } from "./documents.ts";

const NODE_PROJECTION = { _id: 1, slug: 1, title: 1, status: 1, "governance.approved_at": 1, drift: 1 } as const;

function toNode(d: Pick<TopicDoc, "_id" | "slug" | "title" | "status" | "governance" | "drift">): GraphNodeRow {
  return {
    id: d._id,
    slug: d.slug,
    title: d.title,
    status: d.status,
    approved_at: d.governance?.approved_at ?? null,
    drifted: d.drift !== null && d.drift !== undefined,
  };
}

const OLDEST_FIRST = { created_at: 1, _id: 1 } as const;

export class MongoRelationStore implements RelationStore {
  constructor(private readonly c: TopicCollections) {}

  /** Replaces the workspace's marker with a fresh value (last writer wins: any new value is a change). */
  private async bump(workspaceId: string): Promise<void> {
    const doc = { _id: workspaceId, workspace_id: workspaceId, marker: crypto.randomUUID() };
    try {
      await this.c.topicRelationMarkers.replaceOne({ _id: workspaceId }, doc, { upsert: true });
    } catch (e) {
      if (!isDuplicateKey(e)) throw e;
      await this.c.topicRelationMarkers.replaceOne({ _id: workspaceId }, doc); // a concurrent upsert inserted it first
    }
  }

  private byTopics(workspaceId: string, ids: readonly string[]): Filter<RelationDoc> {
    return { workspace_id: workspaceId, $or: [{ from_topic_id: { $in: [...ids] } }, { to_topic_id: { $in: [...ids] } }] };
  }

  async insert(r: Relation): Promise<"ok" | "duplicate" | "not_found"> {
    const ends = await this.c.topics.countDocuments({ workspace_id: r.workspace_id, _id: { $in: [r.from_topic_id, r.to_topic_id] } });
    if (ends !== new Set([r.from_topic_id, r.to_topic_id]).size) return "not_found";
    try {
      await this.c.topicRelations.insertOne(relationDoc(r));
    } catch (e) {
      if (isDuplicateKey(e)) return "duplicate";
      throw e;
    }
    await this.bump(r.workspace_id);
    return "ok";
  }

  async get(workspaceId: string, id: string): Promise<Relation | null> {
    const d = await this.c.topicRelations.findOne({ _id: id, workspace_id: workspaceId });
    return d ? toRelation(d) : null;
  }

  async delete(workspaceId: string, id: string): Promise<boolean> {
    const { deletedCount } = await this.c.topicRelations.deleteOne({ _id: id, workspace_id: workspaceId });
    if (deletedCount !== 1) return false;
    await this.bump(workspaceId);
    return true;
  }

  async ofTopics(workspaceId: string, topicIds: readonly string[], limit: number): Promise<Relation[]> {
    const n = Math.max(0, Math.trunc(limit));
    if (topicIds.length === 0 || n === 0) return [];
    const docs = await this.c.topicRelations.find(this.byTopics(workspaceId, topicIds)).sort(OLDEST_FIRST).limit(n).toArray();
    return docs.map(toRelation);
  }

  async list(workspaceId: string, limit: number): Promise<Relation[]> {
    const n = Math.max(0, Math.trunc(limit));
    if (n === 0) return [];
    return (await this.c.topicRelations.find({ workspace_id: workspaceId }).sort(OLDEST_FIRST).limit(n).toArray()).map(toRelation);
  }

  async retarget(workspaceId: string, sourceId: string, targetId: string, newId: () => string): Promise<number> {
    const moving = await this.c.topicRelations.find(this.byTopics(workspaceId, [sourceId])).sort(OLDEST_FIRST).toArray();
    let n = 0;
    for (const d of moving) {
      const r = toRelation(d);
      const from = r.from_topic_id === sourceId ? targetId : r.from_topic_id;
      const to = r.to_topic_id === sourceId ? targetId : r.to_topic_id;
      if (from !== to) {
        try {
          await this.c.topicRelations.insertOne(relationDoc({ ...r, id: newId(), from_topic_id: from, to_topic_id: to }));
          n++;
        } catch (e) {
          if (!isDuplicateKey(e)) throw e; // the target has it already (or an interrupted call carried it)
        }
      }
      await this.c.topicRelations.deleteOne({ _id: d._id, workspace_id: workspaceId });
    }
    if (moving.length > 0) await this.bump(workspaceId);
    return n;
  }

  async removeTopic(workspaceId: string, topicId: string): Promise<void> {
    const { deletedCount } = await this.c.topicRelations.deleteMany(this.byTopics(workspaceId, [topicId]));
    if (deletedCount > 0) await this.bump(workspaceId);
  }

  async nodes(workspaceId: string, ids: readonly string[]): Promise<GraphNodeRow[]> {
    if (ids.length === 0) return [];
    const docs = await this.c.topics.find({ workspace_id: workspaceId, _id: { $in: [...new Set(ids)] } }, { projection: NODE_PROJECTION })
      .toArray();
    return docs.map(toNode);
  }

  async allNodes(workspaceId: string, includeArchived: boolean, limit: number): Promise<GraphNodeRow[]> {
    const n = Math.max(0, Math.trunc(limit));
    if (n === 0) return [];
    const q: Filter<TopicDoc> = { workspace_id: workspaceId };
    if (!includeArchived) q.status = { $ne: "archived" };
    const docs = await this.c.topics.find(q, { projection: NODE_PROJECTION }).sort({ _id: 1 }).limit(n).toArray();
    return docs.map(toNode);
  }

  async fingerprint(workspaceId: string, staleBefore: string): Promise<GraphFingerprint> {
    const [newest, eventCount, marker, staleCount] = await Promise.all([
      this.c.topicEvents.find({ workspace_id: workspaceId }, { projection: { _id: 1 } }).sort({ at: -1, _id: -1 }).limit(1).next(),
      this.c.topicEvents.countDocuments({ workspace_id: workspaceId }),
      this.c.topicRelationMarkers.findOne({ _id: workspaceId }),
      this.c.topics.countDocuments({ workspace_id: workspaceId, status: "reviewed", "governance.approved_at": { $lt: staleBefore } }),
    ]);
    return { lastEventId: newest?._id ?? null, eventCount, relationMarker: marker?.marker ?? "0", staleCount };
  }
}
