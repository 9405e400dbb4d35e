/**
 * Proposals and relations without transactions (docs/decisions/005-mongo-without-transactions.md
 * and 009-proposals-relations-graph.md). The atomic tools are the same: an insert into a unique
 * index and a delete by `_id`.
 *
 * - **A decision is an insert.** Closing a proposal inserts `topic_proposal_decisions` with the
 *   proposal's id as `_id`: of concurrent deciders exactly one inserts ("ok"), the others meet the
 *   duplicate ("not_open"). Then the proposal document copies the decision. A crash in between
 *   leaves a decision the document does not show yet; reads that meet an open proposal look for
 *   its decision and copy it over (healing), and so does the next decision attempt.
 * - **A relation is unique by its key**: the unique index (workspace_id, key) refuses a duplicate,
 *   also of concurrent inserts. The marker is replaced after the relation write (so a reader never
 *   pairs a new marker with the old relations).
 * - **Retarget** (a merge) inserts each carried relation under a new id first, then deletes the
 *   source's; interrupted, calling it again finishes (a carried copy already there is a duplicate).
 * - Both ends of a relation are checked before its insert; a topic deleted in that instant leaves
 *   a relation to nothing, which readers skip (a relation's node is simply missing).
 */
import type { Filter } from "mongodb";
import type { OffsetPage } from "../../core/kernel/paging.ts";
import type { GraphFingerprint, GraphNodeRow, Proposal, ProposalDecision, Relation } from "../../core/topics/model.ts";
import type { ProposalFilter, ProposalStore, RelationStore } from "../../core/topics/ports.ts";
import type { Listed } from "../../core/workspaces/ports.ts";
import { isDuplicateKey, type MongoCollections } from "./documents.ts";
import {
  decisionOf,
  type ProposalDoc,
  proposalDoc,
  type RelationDoc,
  relationDoc,
  toProposal,
  toRelation,
} from "./proposal-relation-documents.ts";
import type { TopicDoc } from "./topic-documents.ts";

export class MongoProposalStore implements ProposalStore {
  constructor(private readonly c: MongoCollections) {}

  async insert(p: Proposal): Promise<void> {
    await this.c.topicProposals.insertOne(proposalDoc(p));
  }

  async get(workspaceId: string, id: string): Promise<Proposal | null> {
    const d = await this.c.topicProposals.findOne({ _id: id, workspace_id: workspaceId });
    if (!d) return null;
    const [healed] = await this.heal([toProposal(d)]);
    return healed!;
  }

  /** Open proposals whose decision was inserted but not copied yet (a crash): copied now. */
  private async heal(items: Proposal[]): Promise<Proposal[]> {
    const open = items.filter((p) => p.status === "open");
    if (open.length === 0) return items;
    const decisions = await this.c.topicProposalDecisions
      .find({ _id: { $in: open.map((p) => p.id) }, workspace_id: open[0]!.workspace_id })
      .toArray();
    if (decisions.length === 0) return items;
    const byId = new Map(decisions.map((d) => [d._id, decisionOf(d)]));
    for (const [id, d] of byId) await this.copyDecision(id, d);
    return items.map((p) => (byId.has(p.id) ? { ...p, ...byId.get(p.id)! } : p));
  }

  private async copyDecision(id: string, d: ProposalDecision): Promise<void> {
    await this.c.topicProposals.updateOne({ _id: id }, { $set: { ...d } });
  }

  async list(workspaceId: string, f: ProposalFilter, order: "newest" | "oldest", page: OffsetPage): Promise<Listed<Proposal>> {
    const q: Filter<ProposalDoc> = { workspace_id: workspaceId };
    if (f.topicId) q.topic_id = f.topicId;
    if (f.status) q.status = f.status;
    const dir = order === "newest" ? -1 : 1;
    const limit = Math.max(0, Math.trunc(page.limit));
    const offset = Math.max(0, Math.trunc(page.offset));
    const [docs, total] = await Promise.all([
      limit === 0 ? Promise.resolve([] as ProposalDoc[]) : this.c.topicProposals.find(q).sort({ created_at: dir, _id: dir }).skip(offset).limit(limit).toArray(),
      this.c.topicProposals.countDocuments(q),
    ]);
    const items = await this.heal(docs.map(toProposal));
    // A healed proposal no longer has the status asked for: it leaves the page.
    return { items: f.status ? items.filter((p) => p.status === f.status) : items, total };
  }

  async decide(workspaceId: string, id: string, d: ProposalDecision): Promise<"ok" | "not_open" | "not_found"> {
    const cur = await this.c.topicProposals.findOne({ _id: id, workspace_id: workspaceId }, { projection: { status: 1 } });
    if (!cur) return "not_found";
    if (cur.status !== "open") return "not_open";
    try {
      await this.c.topicProposalDecisions.insertOne({ _id: id, workspace_id: workspaceId, ...d });
    } catch (e) {
      if (!isDuplicateKey(e)) throw e;
      // Another decision won: make sure its proposal shows it (it may have crashed before).
      const other = await this.c.topicProposalDecisions.findOne({ _id: id });
      if (other) await this.copyDecision(id, decisionOf(other));
      return "not_open";
    }
    await this.copyDecision(id, d);
    return "ok";
  }

  async removeTopic(workspaceId: string, topicId: string): Promise<void> {
    const ids = (await this.c.topicProposals.find({ workspace_id: workspaceId, topic_id: topicId }, { projection: { _id: 1 } }).toArray()).map((d) => d._id);
    if (ids.length === 0) return;
    // The proposals (their text) first; a decision left behind by a crash names nothing.
    await this.c.topicProposals.deleteMany({ workspace_id: workspaceId, topic_id: topicId });
    await this.c.topicProposalDecisions.deleteMany({ _id: { $in: ids }, workspace_id: workspaceId });
  }
}

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
  constructor(private readonly c: MongoCollections) {}

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
    const docs = await this.c.topics.find({ workspace_id: workspaceId, _id: { $in: [...new Set(ids)] } }, { projection: NODE_PROJECTION }).toArray();
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
