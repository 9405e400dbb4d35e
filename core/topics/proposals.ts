import { actorKind, assertCanWrite, type Principal } from "../access/mod.ts";
import { assertCanDecideProposal } from "./policy.ts";
import type { TopicDeps } from "./ports.ts";
import { emit } from "../events/mod.ts";
import { conflict, notFound, validationFailed } from "../kernel/errors.ts";
import { uuidv7 } from "../kernel/ids.ts";
import { type OffsetResult, parseOffsetPage, toOffsetResult } from "../kernel/paging.ts";
import type { QueryInt } from "../kernel/query-params.ts";
import { assertValid } from "../kernel/validation.ts";
import { checkRefs, type Workspace } from "../workspaces/mod.ts";
import { changedFields, conflictingFields, normalizePatch, patchToTopic, touchedFields } from "./merge-patch.ts";
import { type Proposal, PROPOSAL_STATUSES, type ProposalStatus, type Topic } from "./model.ts";
import { type OpenProposalDto, ProposalPatch, type ProposalView, type TopicView } from "./dto.ts";
import { findTopic, tagsOf } from "./topic-access.ts";
import { changeTopic } from "./topic-change.ts";
import { commit } from "./topics.ts";
import { toTopicView } from "./view.ts";

/** How far back a merge looks for the base version's snapshot. */
export const MAX_BASE_DISTANCE = 1000;

const proposalNotFound = () => notFound("Proposal");

export function toProposalView(p: Proposal, topicSlug: string | null): ProposalView {
  return {
    id: p.id,
    topic_id: p.topic_id,
    topic_slug: topicSlug,
    summary: p.summary,
    patch: p.patch as Record<string, unknown>,
    base_version: p.base_version,
    status: p.status,
    author_id: p.author_id,
    via: p.via,
    created_at: p.created_at,
    decided_at: p.decided_at,
    decided_by: p.decided_by,
    merged_version: p.merged_version,
  };
}

/**
 * Proposal routes address the topic a slug names without following a merge: a merged (archived)
 * topic's own proposals stay reachable, so they can be rejected.
 */
async function proposalTopic(deps: TopicDeps, ws: Workspace, slug: string): Promise<Topic> {
  return (await findTopic(deps, ws, slug, { followMerge: false })).topic;
}

/** Opens a suggested edit on a topic. Anyone who may write; the topic itself is not touched. */
export async function openProposal(
  deps: TopicDeps,
  p: Principal,
  ws: Workspace,
  slug: string,
  dto: OpenProposalDto,
): Promise<ProposalView> {
  assertCanWrite(p, "open a proposal");
  const raw = assertValid(ProposalPatch, dto.patch, "patch");
  const topic = await proposalTopic(deps, ws, slug);
  if (topic.status === "archived") throw conflict("Cannot open a proposal: the topic is archived", { current_status: topic.status });
  const base = dto.base_version ?? topic.version;
  if (base > topic.version) {
    throw validationFailed(`Invalid base_version: the topic is at version ${topic.version}`, [
      { path: "/base_version", message: `at most ${topic.version}` },
    ]);
  }
  const patch = normalizePatch(raw, tagsOf);
  await checkRefs(deps, ws, patch as { area_id?: string | null; repo_id?: string | null });
  const now = deps.clock.now();
  const proposal: Proposal = {
    id: uuidv7(now.getTime()),
    workspace_id: ws.id,
    topic_id: topic.id,
    summary: dto.summary,
    patch,
    base_version: base,
    status: "open",
    author_id: p.identityId,
    via: actorKind(p),
    created_at: now.toISOString(),
    decided_at: null,
    decided_by: null,
    merged_version: null,
  };
  await deps.stores.proposals.insert(proposal);
  await emit(deps, ws.id, "proposal.opened", p, {
    proposal_id: proposal.id,
    topic_id: topic.id,
    slug: topic.slug,
    fields: touchedFields(patch),
  });
  return toProposalView(proposal, topic.slug);
}

export interface ProposalListQuery {
  status?: string;
  limit?: QueryInt;
  offset?: QueryInt;
}

function parseStatus(raw: string | undefined): ProposalStatus | undefined {
  if (raw === undefined) return undefined;
  if ((PROPOSAL_STATUSES as readonly string[]).includes(raw)) return raw as ProposalStatus;
  throw validationFailed(`Invalid status: expected one of ${PROPOSAL_STATUSES.join(", ")}`, [{
    path: "query.status",
    message: "unknown status",
  }]);
}

/** A topic's proposals, newest first; `status` filters (default: all). */
export async function listTopicProposals(
  deps: TopicDeps,
  ws: Workspace,
  slug: string,
  q: ProposalListQuery,
): Promise<OffsetResult<ProposalView>> {
  const status = parseStatus(q.status);
  const page = parseOffsetPage(q);
  const topic = await proposalTopic(deps, ws, slug);
  const { items, total } = await deps.stores.proposals.list(ws.id, { topicId: topic.id, ...(status ? { status } : {}) }, "newest", page);
  return toOffsetResult(items.map((x) => toProposalView(x, topic.slug)), total, page);
}

/** The review queue: open proposals across the workspace, oldest first. */
export async function listOpenProposals(
  deps: TopicDeps,
  ws: Workspace,
  q: Omit<ProposalListQuery, "status">,
): Promise<OffsetResult<ProposalView>> {
  const page = parseOffsetPage(q);
  const { items, total } = await deps.stores.proposals.list(ws.id, { status: "open" }, "oldest", page);
  const nodes = items.length === 0 ? [] : await deps.stores.relations.nodes(ws.id, [...new Set(items.map((x) => x.topic_id))]);
  const slugOf = new Map(nodes.map((n) => [n.id, n.slug]));
  return toOffsetResult(items.map((x) => toProposalView(x, slugOf.get(x.topic_id) ?? null)), total, page);
}

async function findProposal(
  deps: TopicDeps,
  ws: Workspace,
  slug: string,
  proposalId: string,
): Promise<{ topic: Topic; proposal: Proposal }> {
  const topic = await proposalTopic(deps, ws, slug);
  const proposal = await deps.stores.proposals.get(ws.id, proposalId);
  if (!proposal || proposal.topic_id !== topic.id) throw proposalNotFound();
  return { topic, proposal };
}

function assertOpen(proposal: Proposal, action: string): void {
  if (proposal.status !== "open") {
    throw conflict(`Cannot ${action} proposal: it is ${proposal.status}`, { current_status: proposal.status });
  }
}

/** The topic as it was at `version`, from its history; null when that revision is not kept. */
async function snapshotAt(deps: TopicDeps, topic: Topic, version: number): Promise<Topic | null> {
  if (version === topic.version) return topic;
  const distance = topic.version - version + 1;
  if (version < 1 || distance > MAX_BASE_DISTANCE) return null;
  const events = await deps.stores.topics.history(topic.workspace_id, topic.id, distance);
  return events.find((e) => e.version === version)?.snapshot ?? null;
}

/**
 * Merges a suggested edit (owner/admin): when no field it touches changed since its base version
 * (three-way, see `conflictingFields`), it is applied as a new revision (`topic.updated` carrying
 * `proposal_id`), stamped `approved_via`, and the proposal is marked merged. A conflict is a 409
 * naming the fields, and nothing is written. The topic write is version-checked, so of two merges
 * racing exactly one applies.
 */
export async function mergeProposal(
  deps: TopicDeps,
  p: Principal,
  ws: Workspace,
  slug: string,
  proposalId: string,
): Promise<{ proposal: ProposalView; topic: TopicView }> {
  assertCanDecideProposal(p, "merge");
  const { topic, proposal } = await findProposal(deps, ws, slug, proposalId);
  assertOpen(proposal, "merge");
  if (topic.status === "archived") throw conflict("Cannot merge proposal: the topic is archived", { current_status: topic.status });
  const base = await snapshotAt(deps, topic, proposal.base_version);
  const conflicts = conflictingFields(proposal.patch, base, topic);
  if (conflicts.length > 0) {
    throw conflict(`Cannot merge proposal: ${conflicts.join(", ")} changed since version ${proposal.base_version}`, {
      conflicting_fields: conflicts,
      base_version: proposal.base_version,
      current_version: topic.version,
    });
  }
  await checkRefs(deps, ws, proposal.patch as { area_id?: string | null; repo_id?: string | null });
  const now = deps.clock.now();
  const changed = changedFields(proposal.patch, topic);
  let result = topic;
  if (changed.length > 0) {
    const w = changeTopic(p, topic, { ...patchToTopic(proposal.patch), approved_via: actorKind(p) }, "topic.updated", now, {
      fields: changed,
      proposal_id: proposal.id,
    });
    await commit(deps, p, w);
    result = w.topic;
  }
  const decision = { status: "merged" as const, decided_at: now.toISOString(), decided_by: p.identityId, merged_version: result.version };
  const decided = await deps.stores.proposals.decide(ws.id, proposal.id, decision);
  if (decided === "not_found") throw proposalNotFound();
  if (decided === "not_open") {
    const current = await deps.stores.proposals.get(ws.id, proposal.id);
    throw conflict(
      `Cannot merge proposal: it was ${current?.status ?? "closed"} meanwhile (its change was applied as version ${result.version})`,
      {
        current_status: current?.status ?? null,
        current_version: result.version,
      },
    );
  }
  await emit(deps, ws.id, "proposal.merged", p, {
    proposal_id: proposal.id,
    topic_id: topic.id,
    slug: result.slug,
    version: result.version,
  });
  return { proposal: toProposalView({ ...proposal, ...decision }, result.slug), topic: toTopicView(result, ws, now, "full") };
}

/** Closes a suggested edit without applying it (owner/admin). */
export async function rejectProposal(
  deps: TopicDeps,
  p: Principal,
  ws: Workspace,
  slug: string,
  proposalId: string,
): Promise<ProposalView> {
  assertCanDecideProposal(p, "reject");
  const { topic, proposal } = await findProposal(deps, ws, slug, proposalId);
  assertOpen(proposal, "reject");
  const decision = {
    status: "rejected" as const,
    decided_at: deps.clock.now().toISOString(),
    decided_by: p.identityId,
    merged_version: null,
  };
  const decided = await deps.stores.proposals.decide(ws.id, proposal.id, decision);
  if (decided === "not_found") throw proposalNotFound();
  if (decided === "not_open") {
    const current = await deps.stores.proposals.get(ws.id, proposal.id);
    throw conflict(`Cannot reject proposal: it is ${current?.status ?? "closed"}`, { current_status: current?.status ?? null });
  }
  await emit(deps, ws.id, "proposal.rejected", p, { proposal_id: proposal.id, topic_id: topic.id, slug: topic.slug });
  return toProposalView({ ...proposal, ...decision }, topic.slug);
}
