import type { Workspace } from "../workspaces/mod.ts";
import { isStale } from "./staleness.ts";
import type { Topic, TopicEvent, Trust } from "./model.ts";
import type { TopicEventView, TopicRevisionView, TopicView, TopicViewName } from "./dto.ts";

const EXCERPT_LENGTH = 280;
/** How much of a body the excerpt views need: one character beyond the excerpt tells it was cut. */
export const EXCERPT_BODY_CHARS = EXCERPT_LENGTH + 1;

/** The body characters a store must read for a view: all for `full`, the excerpt's for the others. */
export function bodyCharsFor(view: TopicViewName): number | undefined {
  return view === "full" ? undefined : EXCERPT_BODY_CHARS;
}

/** The flat trust verdict of a status: archived makes no claim, so it reads as `draft`. */
export function trustOf(status: Topic["status"]): Trust {
  return status === "archived" ? "draft" : status;
}

/**
 * A topic as responses show it, in one of the documented views. Built field by field in the order
 * the answer shows them (the head, the text, the rest), rather than by spreading objects: a page
 * builds fifty of these per request.
 */
export function toTopicView(t: Topic, ws: Workspace, now: Date, view: TopicViewName): TopicView {
  const trust = trustOf(t.status);
  const v: TopicView = {
    id: t.id,
    slug: t.slug,
    title: t.title,
    status: t.status,
    trust,
    classification: { status: trust },
    stale: isStale(t.status, t.governance.approved_at, ws.settings.review_interval_days, now),
    drifted: t.drift !== null,
    version: t.version,
    updated_at: t.updated_at,
  };
  if (view === "compact") return v;
  if (view === "full") v.body = t.body;
  else v.excerpt = excerpt(t.body);
  v.tags = t.tags;
  v.area_id = t.area_id;
  v.repo_id = t.repo_id;
  v.anchors = t.anchors;
  v.kind = t.kind;
  v.origin = t.origin;
  v.source_url = t.source_url;
  v.owner_id = t.owner_id;
  v.author_id = t.author_id;
  v.governance = t.governance;
  v.approved_via = t.approved_via;
  v.drift = t.drift;
  v.merged_into = t.merged_into;
  v.created_at = t.created_at;
  return v;
}

function excerpt(body: string): string {
  if (body.length <= EXCERPT_LENGTH) return body;
  const cut = body.slice(0, EXCERPT_LENGTH);
  const space = cut.lastIndexOf(" ");
  return `${space > EXCERPT_LENGTH / 2 ? cut.slice(0, space) : cut}…`;
}

export function toEventView(e: TopicEvent): TopicEventView {
  return {
    id: e.id,
    type: e.type,
    topic_id: e.topic_id,
    topic_slug: e.topic_slug,
    repo_id: e.repo_id,
    version: e.version,
    actor_id: e.actor_id,
    via: e.via,
    at: e.at,
    data: e.data,
  };
}

/** A history entry: the event and the topic as that change left it. */
export function toRevisionView(e: TopicEvent & { snapshot: Topic }): TopicRevisionView {
  const s = e.snapshot;
  return {
    version: e.version,
    type: e.type,
    actor_id: e.actor_id,
    via: e.via,
    at: e.at,
    slug: s.slug,
    title: s.title,
    body: s.body,
    tags: s.tags,
    status: s.status,
  };
}
