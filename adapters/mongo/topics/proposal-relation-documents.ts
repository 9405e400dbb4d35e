/**
 * Documents of proposals and relations in the MongoDB adapter (proposal-store.ts and
 * relation-store.ts keep them consistent without transactions).
 *
 * - `topic_proposals`: the proposal, `_id` = its id.
 * - `topic_proposal_decisions`: `_id` = the proposal's id. Inserting it is the decision (the
 *   `_id` index lets exactly one of concurrent deciders in); the proposal document then copies it.
 * - `topic_relations`: the relation, `_id` = its id, plus `key` (core's `relationKey`), unique per
 *   workspace.
 * - `topic_relation_markers`: `_id` = the workspace id; `marker` is replaced by a fresh random
 *   value after every relation change (part of the full graph's ETag).
 */
import { type Proposal, type ProposalDecision, type Relation, relationKey } from "../../../core/topics/model.ts";

export type ProposalDoc = Omit<Proposal, "id"> & { _id: string };
export type ProposalDecisionDoc = ProposalDecision & { _id: string; workspace_id: string };
export type RelationDoc = Omit<Relation, "id"> & { _id: string; key: string };
export interface RelationMarkerDoc {
  _id: string;
  workspace_id: string;
  marker: string;
}

export function proposalDoc(p: Proposal): ProposalDoc {
  const { id, ...rest } = p;
  return { _id: id, ...rest, patch: { ...p.patch } };
}

export function toProposal(d: ProposalDoc): Proposal {
  return {
    id: d._id,
    workspace_id: d.workspace_id,
    topic_id: d.topic_id,
    summary: d.summary,
    patch: d.patch,
    base_version: d.base_version,
    status: d.status,
    author_id: d.author_id ?? null,
    via: d.via,
    created_at: d.created_at,
    decided_at: d.decided_at ?? null,
    decided_by: d.decided_by ?? null,
    merged_version: d.merged_version ?? null,
  };
}

export const decisionOf = (d: ProposalDecisionDoc): ProposalDecision => ({
  status: d.status,
  decided_at: d.decided_at,
  decided_by: d.decided_by ?? null,
  merged_version: d.merged_version ?? null,
});

export function relationDoc(r: Relation): RelationDoc {
  return {
    _id: r.id,
    workspace_id: r.workspace_id,
    from_topic_id: r.from_topic_id,
    to_topic_id: r.to_topic_id,
    type: r.type,
    created_at: r.created_at,
    created_by: r.created_by,
    key: relationKey(r.from_topic_id, r.to_topic_id, r.type),
  };
}

export function toRelation(d: RelationDoc): Relation {
  return {
    id: d._id,
    workspace_id: d.workspace_id,
    from_topic_id: d.from_topic_id,
    to_topic_id: d.to_topic_id,
    type: d.type,
    created_at: d.created_at,
    created_by: d.created_by ?? null,
  };
}
