import { actorKind, type Principal } from "../access/mod.ts";
import { uuidv7 } from "../kernel/ids.ts";
import type { Topic, TopicEvent, TopicEventType } from "./model.ts";
import type { TopicWrite } from "./ports.ts";

/** The event recording that `topic` (its state after the change) changed by `type`. */
export function topicEvent(
  p: Principal | null,
  topic: Topic,
  type: TopicEventType,
  at: Date,
  data: Record<string, unknown> = {},
): TopicEvent {
  return {
    id: uuidv7(at.getTime()),
    workspace_id: topic.workspace_id,
    topic_id: topic.id,
    topic_slug: topic.slug,
    repo_id: topic.repo_id,
    type,
    version: topic.version,
    actor_id: p?.identityId ?? null,
    via: p ? actorKind(p) : "agent",
    at: at.toISOString(),
    data,
    snapshot: topic,
  };
}

/** The next state of `before` with `patch` applied, one version on, and its event. */
export function changeTopic(
  p: Principal | null,
  before: Topic,
  patch: Partial<Topic>,
  type: TopicEventType,
  at: Date,
  data: Record<string, unknown> = {},
): TopicWrite {
  const topic: Topic = { ...before, ...patch, version: before.version + 1, updated_at: at.toISOString() };
  return { topic, event: topicEvent(p, topic, type, at, data) };
}

/** Tags as stored: distinct and sorted, so every backend compares and orders them alike. */
export function sortedTags(tags: Iterable<string>): string[] {
  return [...new Set(tags)].sort();
}
