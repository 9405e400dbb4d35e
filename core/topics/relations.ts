import { assertCanWrite, type Principal } from "../access/mod.ts";
import { assertCanDeleteRelation, assertCanRelateTopics } from "./policy.ts";
import type { TopicDeps } from "./ports.ts";
import { emit } from "../events/mod.ts";
import { conflict, isAppError, notFound, validationFailed } from "../kernel/errors.ts";
import { uuidv7 } from "../kernel/ids.ts";
import type { Workspace } from "../workspaces/mod.ts";
import type { GraphNodeRow, Relation, Topic } from "./model.ts";
import type { CreateRelationDto, RelationView } from "./dto.ts";
import { findTopic } from "./topic-access.ts";
import { trustOf } from "./view.ts";

/**
 * Relations per topic: adding one is refused once either end has this many (a soft bound, checked
 * before the insert, so concurrent adds may pass it by a few); a topic's list shows at most
 * MAX_RELATIONS_LISTED.
 */
export const MAX_RELATIONS_PER_TOPIC = 500;
export const MAX_RELATIONS_LISTED = 1000;

const relationNotFound = () => notFound("Relation");

function toRelationView(r: Relation, self: string, other: Pick<GraphNodeRow, "id" | "slug" | "title" | "status">): RelationView {
  return {
    id: r.id,
    type: r.type,
    direction: r.from_topic_id === self ? "outgoing" : "incoming",
    from_topic_id: r.from_topic_id,
    to_topic_id: r.to_topic_id,
    topic: { id: other.id, slug: other.slug, title: other.title, status: other.status, trust: trustOf(other.status) },
    created_at: r.created_at,
    created_by: r.created_by,
  };
}

/** The relation's target, named by slug in the body: an unknown one is a 400 about the body. */
async function targetTopic(deps: TopicDeps, ws: Workspace, slug: string): Promise<Topic> {
  try {
    return (await findTopic(deps, ws, slug)).topic;
  } catch (e) {
    if (isAppError(e) && e.code === "NOT_FOUND") {
      throw validationFailed("Invalid target: no such topic in this workspace", [{ path: "/target", message: "no such topic" }]);
    }
    throw e;
  }
}

/** Adds a typed relation from the topic to `dto.target`. Over OAuth it takes scope `topics:write`. */
export async function addRelation(
  deps: TopicDeps,
  p: Principal,
  ws: Workspace,
  slug: string,
  dto: CreateRelationDto,
): Promise<RelationView> {
  assertCanRelateTopics(p);
  const { topic } = await findTopic(deps, ws, slug);
  const target = await targetTopic(deps, ws, dto.target);
  if (target.id === topic.id) {
    throw validationFailed("Invalid target: a topic cannot relate to itself", [{ path: "/target", message: "same topic" }]);
  }
  for (const end of [topic, target]) {
    if ((await deps.stores.relations.ofTopics(ws.id, [end.id], MAX_RELATIONS_PER_TOPIC)).length >= MAX_RELATIONS_PER_TOPIC) {
      throw conflict(`Cannot add relation: ${end.slug} has ${MAX_RELATIONS_PER_TOPIC} relations already`, {
        limit: MAX_RELATIONS_PER_TOPIC,
      });
    }
  }
  const now = deps.clock.now();
  const relation: Relation = {
    id: uuidv7(now.getTime()),
    workspace_id: ws.id,
    from_topic_id: topic.id,
    to_topic_id: target.id,
    type: dto.type,
    created_at: now.toISOString(),
    created_by: p.identityId,
  };
  const inserted = await deps.stores.relations.insert(relation);
  if (inserted === "not_found") throw conflict("Cannot add relation: a topic was deleted meanwhile");
  if (inserted === "duplicate") {
    throw conflict(`Cannot add relation: ${topic.slug} ${dto.type} ${target.slug} exists already`, { type: dto.type, target: target.slug });
  }
  await emit(deps, ws.id, "relation.added", p, { relation_id: relation.id, type: relation.type, from: topic.slug, to: target.slug });
  return toRelationView(relation, topic.id, target);
}

/** The topic's relations, both directions, oldest first, each with the topic at the other end. */
export async function listRelations(
  deps: TopicDeps,
  ws: Workspace,
  slug: string,
): Promise<{ relations: RelationView[]; total: number; truncated: boolean }> {
  const { topic } = await findTopic(deps, ws, slug);
  const rows = await deps.stores.relations.ofTopics(ws.id, [topic.id], MAX_RELATIONS_LISTED + 1);
  const truncated = rows.length > MAX_RELATIONS_LISTED;
  const kept = rows.slice(0, MAX_RELATIONS_LISTED);
  const otherIds = [...new Set(kept.map((r) => (r.from_topic_id === topic.id ? r.to_topic_id : r.from_topic_id)))];
  const others = new Map((otherIds.length ? await deps.stores.relations.nodes(ws.id, otherIds) : []).map((n) => [n.id, n]));
  const relations = kept.flatMap((r) => {
    const other = others.get(r.from_topic_id === topic.id ? r.to_topic_id : r.from_topic_id);
    return other ? [toRelationView(r, topic.id, other)] : []; // its topic is gone: a deletion cut short
  });
  return { relations, total: relations.length, truncated };
}

/** Deletes a relation of the topic. People only: a faceless key or an OAuth client is refused. */
export async function deleteRelation(deps: TopicDeps, p: Principal, ws: Workspace, slug: string, relationId: string): Promise<string> {
  assertCanDeleteRelation(p);
  assertCanWrite(p, "delete a relation");
  const { topic } = await findTopic(deps, ws, slug);
  const r = await deps.stores.relations.get(ws.id, relationId);
  if (!r || (r.from_topic_id !== topic.id && r.to_topic_id !== topic.id)) throw relationNotFound();
  if (!(await deps.stores.relations.delete(ws.id, r.id))) throw relationNotFound();
  await emit(deps, ws.id, "relation.removed", p, { relation_id: r.id, type: r.type, topic_id: topic.id });
  return r.id;
}
