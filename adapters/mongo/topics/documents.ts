/**
 * Documents of the topics module in the MongoDB adapter, and their mapping to and from the
 * models. The rules that keep them consistent without transactions are in topic-store.ts.
 *
 * - `topics`: the topic's fields, `_id` = its id, plus the adapter's search and list keys:
 *   `terms` (every distinct term of title, tags and body: `allTerms(topicTerms(t))`),
 *   `title_terms`, `tag_terms` (for scoring without the body) and `list_rank` (drifted × 10 +
 *   trust rank, so the list order of `compareListed` is an index sort).
 * - `topic_events`: `_id` = the event's id; unique (workspace_id, topic_id, version), which is
 *   the lock of every topic write.
 * - `topic_redirects`: old slugs, `_id` = `<workspace_id>:<slug>`.
 * - `tags`: the registry, `_id` = `<workspace_id>:<name>`.
 */
import { anchorBases } from "../../../core/code-context/anchor-base.ts";
import type { Tag, Topic, TopicEvent } from "../../../core/topics/model.ts";
import type { TagView } from "../../../core/topics/dto.ts";
import { trustRank } from "../../../core/topics/search-rank.ts";
import { allTerms, topicTerms } from "../../../core/topics/search-terms.ts";

export type TopicDoc = Omit<Topic, "id"> & {
  _id: string;
  /** Every distinct term of the topic (title, tags, body): what `search` matches with `$all`. */
  terms: string[];
  title_terms: string[];
  tag_terms: string[];
  /** `compareListed` as a number: drifted × 10 + trust rank (reviewed 3 ... archived 0). */
  list_rank: number;
  /** `anchorBases(anchors)`: what `anchoredAt` looks topics up by. */
  anchor_bases: string[];
};

export type TopicEventDoc = Omit<TopicEvent, "id"> & { _id: string };

export interface TopicRedirectDoc {
  /** `<workspace_id>:<slug>` */
  _id: string;
  workspace_id: string;
  slug: string;
  topic_id: string;
}

export interface TagDoc {
  /** `<workspace_id>:<name>` */
  _id: string;
  workspace_id: string;
  name: string;
  description: string | null;
  created_at: string;
  updated_at: string;
}

/** Leaves out the adapter's bookkeeping (and the terms, which can be as long as a body). */
export const TOPIC_FIELDS_ONLY = { terms: 0, title_terms: 0, tag_terms: 0, list_rank: 0, anchor_bases: 0 } as const;

export const redirectKey = (workspaceId: string, slug: string) => `${workspaceId}:${slug}`;
export const tagKey = (workspaceId: string, name: string) => `${workspaceId}:${name}`;

export function listRank(t: Pick<Topic, "drift" | "status">): number {
  return (t.drift !== null ? 10 : 0) + trustRank(t.status);
}

// ---- models → documents ----

export function topicDoc(t: Topic): TopicDoc {
  const terms = topicTerms(t);
  return {
    _id: t.id,
    workspace_id: t.workspace_id,
    slug: t.slug,
    title: t.title,
    body: t.body,
    tags: [...t.tags],
    area_id: t.area_id,
    repo_id: t.repo_id,
    anchors: [...t.anchors],
    kind: t.kind,
    origin: t.origin,
    source_url: t.source_url,
    owner_id: t.owner_id,
    author_id: t.author_id,
    status: t.status,
    governance: { ...t.governance },
    approved_via: t.approved_via,
    drift: t.drift === null ? null : { commit: t.drift.commit, files: [...t.drift.files], at: t.drift.at },
    merged_into: t.merged_into,
    merged_from: [...t.merged_from],
    version: t.version,
    created_at: t.created_at,
    updated_at: t.updated_at,
    terms: allTerms(terms),
    title_terms: terms.title,
    tag_terms: terms.tags,
    list_rank: listRank(t),
    anchor_bases: anchorBases(t.anchors),
  };
}

export function topicEventDoc(e: TopicEvent): TopicEventDoc {
  return {
    _id: e.id,
    workspace_id: e.workspace_id,
    topic_id: e.topic_id,
    topic_slug: e.topic_slug,
    repo_id: e.repo_id,
    type: e.type,
    version: e.version,
    actor_id: e.actor_id,
    via: e.via,
    at: e.at,
    data: e.data,
    snapshot: e.snapshot,
  };
}

export function tagDoc(t: Tag): TagDoc {
  return {
    _id: tagKey(t.workspace_id, t.name),
    workspace_id: t.workspace_id,
    name: t.name,
    description: t.description,
    created_at: t.created_at,
    updated_at: t.updated_at,
  };
}

// ---- documents → models ----

/** The topic of a document (read with or without TOPIC_FIELDS_ONLY). */
export function toTopic(d: Omit<TopicDoc, "terms" | "title_terms" | "tag_terms" | "list_rank" | "anchor_bases">): Topic {
  return {
    id: d._id,
    workspace_id: d.workspace_id,
    slug: d.slug,
    title: d.title,
    body: d.body,
    tags: d.tags ?? [],
    area_id: d.area_id ?? null,
    repo_id: d.repo_id ?? null,
    anchors: d.anchors ?? [],
    kind: d.kind,
    origin: d.origin,
    source_url: d.source_url ?? null,
    owner_id: d.owner_id ?? null,
    author_id: d.author_id ?? null,
    status: d.status,
    governance: {
      authoritative: d.governance.authoritative,
      approved_by: d.governance.approved_by ?? null,
      approved_at: d.governance.approved_at ?? null,
    },
    approved_via: d.approved_via ?? null,
    drift: d.drift ? { commit: d.drift.commit ?? null, files: d.drift.files ?? [], at: d.drift.at } : null,
    merged_into: d.merged_into ?? null,
    merged_from: d.merged_from ?? [],
    version: d.version,
    created_at: d.created_at,
    updated_at: d.updated_at,
  };
}

export function toTopicEvent(d: TopicEventDoc): TopicEvent {
  return {
    id: d._id,
    workspace_id: d.workspace_id,
    topic_id: d.topic_id,
    topic_slug: d.topic_slug,
    repo_id: d.repo_id ?? null,
    type: d.type,
    version: d.version,
    actor_id: d.actor_id ?? null,
    via: d.via,
    at: d.at,
    data: d.data ?? {},
    snapshot: d.snapshot ? toSnapshot(d.snapshot) : null,
  };
}

/** A stored snapshot is the model as written; rebuilt field by field like a topic document. */
function toSnapshot(s: Topic): Topic {
  const { id, ...rest } = s;
  return toTopic({ ...rest, _id: id });
}

export function toTagView(d: TagDoc, topicCount: number): TagView {
  return {
    name: d.name,
    description: d.description ?? null,
    topic_count: topicCount,
    created_at: d.created_at,
    updated_at: d.updated_at,
  };
}
