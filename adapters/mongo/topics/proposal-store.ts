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
import type { TopicCollections } from "./collections.ts";
import type { Filter } from "mongodb";
import type { OffsetPage } from "../../../core/kernel/paging.ts";
import type { Proposal, ProposalDecision } from "../../../core/topics/model.ts";
import type { ProposalFilter, ProposalStore } from "../../../core/topics/ports.ts";
import type { Listed } from "../../../core/workspaces/ports.ts";
import { isDuplicateKey } from "../duplicate-key.ts";
import { decisionOf, type ProposalDoc, proposalDoc, toProposal } from "./proposal-relation-documents.ts";

export class MongoProposalStore implements ProposalStore {
  constructor(private readonly c: TopicCollections) {}

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
      limit === 0
        ? Promise.resolve([] as ProposalDoc[])
        : this.c.topicProposals.find(q).sort({ created_at: dir, _id: dir }).skip(offset).limit(limit).toArray(),
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
    const ids = (await this.c.topicProposals.find({ workspace_id: workspaceId, topic_id: topicId }, { projection: { _id: 1 } }).toArray())
      .map((d) => d._id);
    if (ids.length === 0) return;
    // The proposals (their text) first; a decision left behind by a crash names nothing.
    await this.c.topicProposals.deleteMany({ workspace_id: workspaceId, topic_id: topicId });
    await this.c.topicProposalDecisions.deleteMany({ _id: { $in: ids }, workspace_id: workspaceId });
  }
}
