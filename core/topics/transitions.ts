import { actorKind, insufficientScope, type Principal } from "../access/mod.ts";
import { assertCanMergeTopics, assertCanMoveTopic, governanceActor, governanceAuthority } from "./policy.ts";
import type { TopicDeps } from "./ports.ts";
import { emit } from "../events/mod.ts";
import { uuidv7 } from "../kernel/ids.ts";
import { conflict, forbidden, validationFailed, versionConflict } from "../kernel/errors.ts";
import { checkRefs, type Workspace } from "../workspaces/mod.ts";
import { GOVERNANCE, type GovernanceAction, transition } from "./governance.ts";
import type { Topic, TopicEventType } from "./model.ts";
import type { MergeTopicDto, MoveTopicDto, TopicView } from "./dto.ts";
import { assertUsableSlug, findTopic } from "./topic-access.ts";
import { changeTopic, sortedTags } from "./topic-change.ts";
import { checkVersion, commit } from "./topics.ts";
import { toTopicView } from "./view.ts";

const EVENT_OF: Record<GovernanceAction, TopicEventType> = {
  propose: "topic.proposed",
  reject: "topic.rejected",
  approve: "topic.approved",
  archive: "topic.archived",
  unvouch: "topic.unvouched",
  "vouch-ack": "topic.vouched",
  restore: "topic.restored",
};

const NOT_AUTHORITATIVE = { authoritative: false, approved_by: null, approved_at: null };

/** What each action changes besides the status: the vouch of an owner/admin and the drift it clears. */
function effects(action: GovernanceAction, p: Principal, at: string): Partial<Topic> {
  switch (action) {
    case "approve":
    case "vouch-ack":
      return {
        governance: { authoritative: true, approved_by: p.identityId, approved_at: at },
        approved_via: actorKind(p),
        drift: null,
      };
    case "unvouch":
    case "archive":
      return { governance: NOT_AUTHORITATIVE, approved_via: null };
    default:
      return {};
  }
}

/** Applies a governance action (`POST /topics/{topic}/{action}`), the state machine deciding. */
export async function applyGovernance(
  deps: TopicDeps,
  p: Principal,
  ws: Workspace,
  slug: string,
  action: GovernanceAction,
  expected: number | undefined,
): Promise<TopicView> {
  const { topic } = await findTopic(deps, ws, slug, { followMerge: action !== "restore" });
  const verdict = transition(topic.status, action, governanceActor(p));
  if (!verdict.ok && verdict.reason === "forbidden") {
    if (verdict.missing === "scope") throw insufficientScope(`${action} topic`, "write");
    throw forbidden(`Cannot ${action} topic: ${governanceAuthority(action)} is required`);
  }
  if (!verdict.ok) {
    throw conflict(`Cannot ${action} topic: it is ${topic.status}`, {
      current_status: topic.status,
      allowed_from: GOVERNANCE[action].from,
    });
  }
  checkVersion(topic, expected);
  const now = deps.clock.now();
  const patch: Partial<Topic> = { status: verdict.to, ...effects(action, p, now.toISOString()) };
  if (action === "restore") patch.merged_into = null;
  const w = changeTopic(p, topic, patch, EVENT_OF[action], now, { from: topic.status, to: verdict.to });
  await commit(deps, p, w);
  return toTopicView(w.topic, ws, now, "full");
}

/** Changes a topic's slug and/or area; the old slug keeps answering (owner/admin). */
export async function moveTopic(deps: TopicDeps, p: Principal, ws: Workspace, slug: string, dto: MoveTopicDto): Promise<TopicView> {
  assertCanMoveTopic(p);
  if (dto.slug === undefined && dto.area_id === undefined) {
    throw validationFailed("Invalid move: give slug and/or area_id", [{ path: "/", message: "slug or area_id is required" }]);
  }
  if (dto.slug !== undefined) assertUsableSlug(dto.slug);
  const { topic } = await findTopic(deps, ws, slug);
  checkVersion(topic, dto.expected_version);
  await checkRefs(deps, ws, { area_id: dto.area_id });
  const patch: Partial<Topic> = {};
  if (dto.slug !== undefined) patch.slug = dto.slug;
  if (dto.area_id !== undefined) patch.area_id = dto.area_id;
  const now = deps.clock.now();
  const w = changeTopic(p, topic, patch, "topic.moved", now, {
    from: { slug: topic.slug, area_id: topic.area_id },
    to: { slug: patch.slug ?? topic.slug, area_id: patch.area_id === undefined ? topic.area_id : patch.area_id },
  });
  await commit(deps, p, w);
  return toTopicView(w.topic, ws, now, "full");
}

/**
 * Merges this topic (the source) into `dto.target` (owner/admin): the target gains the source's
 * body under a heading and its tags, and is stamped `approved_via`; the source is archived with
 * `merged_into`, and its slug answers with the target from then on.
 */
export async function mergeTopic(deps: TopicDeps, p: Principal, ws: Workspace, slug: string, dto: MergeTopicDto): Promise<TopicView> {
  assertCanMergeTopics(p);
  const { topic: source } = await findTopic(deps, ws, slug, { followMerge: false });
  const { topic: target } = await findTopic(deps, ws, dto.target);
  if (target.id === source.id) {
    throw validationFailed("Invalid target: a topic cannot merge into itself", [{ path: "/target", message: "same topic" }]);
  }
  if (source.status === "archived") throw conflict("Cannot merge topic: it is archived", { current_status: source.status });
  if (target.status === "archived") throw conflict("Cannot merge topic: the target is archived", { target_status: target.status });
  checkVersion(source, dto.expected_version);
  const now = deps.clock.now();
  const merged = target.merged_from.includes(source.id)
    ? { topic: target, event: null } // an interrupted merge being completed: the target already has it
    : changeTopic(
      p,
      target,
      {
        body: `${target.body}${target.body ? "\n\n" : ""}## Merged from: ${source.title}\n\n${source.body}`,
        tags: sortedTags([...target.tags, ...source.tags]),
        merged_from: [...target.merged_from, source.id],
        approved_via: target.status === "reviewed" ? actorKind(p) : target.approved_via,
      },
      "topic.merged",
      now,
      { source_id: source.id, source_slug: source.slug },
    );
  const archived = changeTopic(
    p,
    source,
    { status: "archived", governance: NOT_AUTHORITATIVE, approved_via: null, merged_into: target.id },
    "topic.merged_into",
    now,
    {
      target_id: target.id,
      target_slug: target.slug,
    },
  );
  const result = merged.event
    ? await deps.stores.topics.merge(archived, merged as typeof archived)
    : await deps.stores.topics.update(archived);
  if (result === "version_conflict") throw versionConflict("topic", source.version);
  if (result === "not_found" || result === "slug_taken") throw conflict("Cannot merge topic: a topic changed meanwhile; try again");
  // The source's relations now belong to the target (self-relations and duplicates dropped).
  await deps.stores.relations.retarget(ws.id, source.id, target.id, () => uuidv7(now.getTime()));
  await emit(deps, ws.id, "topic.merged", p, { topic_id: target.id, slug: target.slug, source_id: source.id });
  return toTopicView(merged.topic, ws, now, "full");
}
