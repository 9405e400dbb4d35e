import {
  actorKind,
  assertCanWrite,
  assertOwnerOrAdmin,
  canWrite,
  hasScopesFor,
  insufficientScope,
  isOwnerOrAdmin,
  type Principal,
} from "../access/mod.ts";
import { forbidden } from "../kernel/errors.ts";
import { type Actor, GOVERNANCE, type GovernanceAction, transition } from "./governance.ts";
import type { Topic } from "./model.ts";

/**
 * Who may do what to topics, tags, suggested edits and relations. Writing takes the write scope
 * (`canWrite`); what makes knowledge trusted or removes the team's work takes a person with the
 * owner or admin role; relations are deleted by people only. The governance table itself
 * (governance.ts) says which action needs which authority and from which state.
 */

/** What a principal brings to the governance state machine. */
export function governanceActor(p: Principal): Actor {
  return { canWrite: canWrite(p), isOwnerOrAdmin: isOwnerOrAdmin(p) };
}

/** Whether `p` may apply a governance action to `topic` now (authority and the topic's state). */
export function canGovern(p: Principal, action: GovernanceAction, topic: Pick<Topic, "status">): boolean {
  return transition(topic.status, action, governanceActor(p)).ok;
}

/** Approving makes a topic Knowledge: owners and admins, from draft or proposed. */
export function canApprove(p: Principal, topic: Pick<Topic, "status">): boolean {
  return canGovern(p, "approve", topic);
}

/** The authority a governance action requires, for the refusal message. */
export function governanceAuthority(action: GovernanceAction): string {
  return GOVERNANCE[action].authority === "owner_admin" ? "owner or admin authority" : "scope work:write";
}

/** Whose the deletion is: owners' and admins'; the author's, of their own draft or proposal (reviewed knowledge is the team's). */
function mayDeleteTopic(p: Principal, topic: Pick<Topic, "status" | "author_id">): boolean {
  const ownDraft = (topic.status === "draft" || topic.status === "proposed") && p.identityId !== null && topic.author_id === p.identityId;
  return isOwnerOrAdmin(p) || ownDraft;
}

/** Deleting: owners and admins, and authors their own drafts and proposals; a write (over OAuth, `work:write`). */
export function canDeleteTopic(p: Principal, topic: Pick<Topic, "status" | "author_id">): boolean {
  return canWrite(p) && mayDeleteTopic(p, topic);
}

/** The role (or authorship) before the scope, as `assertOwnerOrAdmin`: a token missing only `work:write` is told so. */
export function assertCanDeleteTopic(p: Principal, topic: Pick<Topic, "status" | "author_id">): void {
  if (!mayDeleteTopic(p, topic)) {
    throw forbidden("Cannot delete topic: owner or admin authority is required (authors may delete their own drafts and proposals)");
  }
  assertCanWrite(p, "delete a topic");
}

/** Moving (new slug or area): owners and admins. */
export function assertCanMoveTopic(p: Principal): void {
  assertOwnerOrAdmin(p, "move a topic");
}

/** Merging one topic into another: owners and admins who may write. */
export function assertCanMergeTopics(p: Principal): void {
  assertOwnerOrAdmin(p, "merge a topic");
  assertCanWrite(p, "merge a topic");
}

/** Merging or rejecting a suggested edit: owners and admins who may write. Anyone who may write opens one. */
export function assertCanDecideProposal(p: Principal, decision: "merge" | "reject"): void {
  assertOwnerOrAdmin(p, `${decision} a proposal`);
  assertCanWrite(p, `${decision} a proposal`);
}

/** Renaming a tag rewrites every topic carrying it: owners and admins. */
export function assertCanRenameTag(p: Principal): void {
  assertOwnerOrAdmin(p, "rename a tag");
}

/** Deleting a tag detaches it from every topic: owners and admins. */
export function assertCanDeleteTag(p: Principal): void {
  assertOwnerOrAdmin(p, "delete a tag");
}

/**
 * Whether the principal may relate topics (add a typed relation): scope `topics:write`, which API
 * keys and sessions hold with the member's full role (access/scopes.ts).
 */
export function canRelateTopics(p: Principal): boolean {
  return hasScopesFor(p, "relate");
}

export function assertCanRelateTopics(p: Principal): void {
  if (!canRelateTopics(p)) throw insufficientScope("add a relation", "relate");
}

/**
 * Whether the principal may delete a topic relation: people only. A faceless key or an OAuth
 * client (an agent, `actorKind`) is refused, whatever its role or scopes.
 */
export function canDeleteRelation(p: Principal): boolean {
  return actorKind(p) === "human" && canWrite(p);
}

export function assertCanDeleteRelation(p: Principal): void {
  if (!canDeleteRelation(p)) throw forbidden("Cannot delete a relation: only a person may (not a faceless key or an OAuth client)");
}
