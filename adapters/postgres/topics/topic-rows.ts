/**
 * Rows of the topics module (migrations/002-topics.ts) and the writes shared by the topic and
 * tag stores: a topic version with its derived columns, its event, and the tag registry's counts.
 * All of them run inside the caller's transaction.
 */
import { anchorBases } from "../../../core/code-context/anchor-base.ts";
import type { TopicStatus } from "../../../core/topics/governance.ts";
import type { ApprovedVia, Drift, Tag, Topic, TopicEvent, TopicEventType, TopicKind, TopicOrigin } from "../../../core/topics/model.ts";
import type { TagView } from "../../../core/topics/dto.ts";
import type { TopicWrite } from "../../../core/topics/ports.ts";
import { trustRank } from "../../../core/topics/search-rank.ts";
import { topicTerms } from "../../../core/topics/search-terms.ts";
import { iso, isoOrNull, type SqlDriver, sqlState, UNIQUE_VIOLATION } from "../driver.ts";
import { type Row, str, strOrNull } from "../row-values.ts";
import { syncTopicTags } from "./topic-tag-rows.ts";

/** The stored fields of a topic (not the derived ones), in the order writes bind them. */
const STORED = [
  "workspace_id",
  "id",
  "slug",
  "title",
  "body",
  "tags",
  "area_id",
  "repo_id",
  "anchors",
  "kind",
  "origin",
  "source_url",
  "owner_id",
  "author_id",
  "status",
  "authoritative",
  "approved_by",
  "approved_at",
  "approved_via",
  "drift",
  "merged_into",
  "merged_from",
  "version",
  "created_at",
  "updated_at",
];

/**
 * How many of the body's first characters `body_head` holds (migrations/021-topic-tag-lists.ts):
 * core's EXCERPT_BODY_CHARS, what the excerpt views read. Changing it takes a migration.
 */
export const BODY_HEAD_CHARS = 281;

/**
 * The stored columns of a topic, each prefixed by `alias`. With `bodyChars`, only the body's first
 * characters are read (views that show an excerpt need no more; bodies are kilobytes): up to
 * BODY_HEAD_CHARS from `body_head`, stored in the row, so that the body's TOAST is not read.
 */
export function topicColumns(alias = "topics", bodyChars?: number): string {
  const cut = bodyChars === undefined ? null : Math.max(0, Math.trunc(bodyChars));
  const body = cut === null
    ? `${alias}.body`
    : cut === BODY_HEAD_CHARS
    ? `${alias}.body_head as body`
    : `left(${alias}.${cut < BODY_HEAD_CHARS ? "body_head" : "body"}, ${cut}) as body`;
  return STORED.map((c) => (c === "body" ? body : `${alias}.${c}`)).join(", ");
}

export function toTopic(r: Row): Topic {
  return {
    id: str(r.id),
    workspace_id: str(r.workspace_id),
    slug: str(r.slug),
    title: str(r.title),
    body: str(r.body),
    tags: [...(r.tags as string[])],
    area_id: strOrNull(r.area_id),
    repo_id: strOrNull(r.repo_id),
    anchors: [...((r.anchors as string[] | null) ?? [])],
    kind: r.kind as TopicKind,
    origin: r.origin as TopicOrigin,
    source_url: strOrNull(r.source_url),
    owner_id: strOrNull(r.owner_id),
    author_id: strOrNull(r.author_id),
    status: r.status as TopicStatus,
    governance: {
      authoritative: r.authoritative as boolean,
      approved_by: strOrNull(r.approved_by),
      approved_at: isoOrNull(r.approved_at),
    },
    approved_via: (r.approved_via ?? null) as ApprovedVia | null,
    drift: (r.drift ?? null) as Drift | null,
    merged_into: strOrNull(r.merged_into),
    merged_from: [...(r.merged_from as string[])],
    version: Number(r.version),
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
  };
}

/**
 * Every column a topic version writes, `$1`... in this order: the stored fields, then the derived
 * ones (`trust_rank`, the term arrays and, from them, `search`). The last parameter holds the
 * body's terms, which only `search` keeps.
 */
const WRITTEN = [
  ...STORED,
  "trust_rank",
  "anchor_bases",
  "title_terms",
  "tag_terms",
  "search",
] as const;

/** `$n` of the title's, tags' and body's terms: after the stored fields, `trust_rank` and `anchor_bases`. */
const TERMS_AT = STORED.length + 3;
/** How many parameters a topic write binds (the version check comes next). */
const PARAMS = TERMS_AT + 2;
const SEARCH_VECTOR = `setweight(array_to_tsvector($${TERMS_AT}::text[]), 'A') || setweight(array_to_tsvector($${
  TERMS_AT + 1
}::text[]), 'B') || setweight(array_to_tsvector($${TERMS_AT + 2}::text[]), 'C')`;

/** The value of each WRITTEN column. */
const WRITTEN_VALUES = [...WRITTEN.slice(0, -1).map((_, i) => `$${i + 1}`), SEARCH_VECTOR];

function topicParams(t: Topic): unknown[] {
  const terms = topicTerms(t);
  return [
    t.workspace_id,
    t.id,
    t.slug,
    t.title,
    t.body,
    t.tags,
    t.area_id,
    t.repo_id,
    t.anchors,
    t.kind,
    t.origin,
    t.source_url,
    t.owner_id,
    t.author_id,
    t.status,
    t.governance.authoritative,
    t.governance.approved_by,
    t.governance.approved_at,
    t.approved_via,
    t.drift,
    t.merged_into,
    t.merged_from,
    t.version,
    t.created_at,
    t.updated_at,
    trustRank(t.status),
    anchorBases(t.anchors),
    terms.title,
    terms.tags,
    terms.body,
  ];
}

/** Inserts version 1 of a topic unless its slug is held; false when it is. */
export async function insertTopicRow(tx: SqlDriver, t: Topic): Promise<boolean> {
  const rows = await tx.query(
    `insert into topics (${WRITTEN.join(", ")}) values (${WRITTEN_VALUES.join(", ")})
     on conflict (workspace_id, slug) do nothing
     returning id`,
    topicParams(t),
  );
  if (rows.length > 0) await syncTopicTags(tx, t.workspace_id, t.id);
  return rows.length > 0;
}

/**
 * Replaces the topic's row with `t` when the stored version is `t.version - 1`; false when it is
 * not. A slug another topic holds raises a unique violation (see `isSlugTaken`).
 */
export async function updateTopicRow(tx: SqlDriver, t: Topic): Promise<boolean> {
  // Everything but the key ($1, $2).
  const rows = await tx.query(
    `update topics set (${WRITTEN.slice(2).join(", ")}) = (${WRITTEN_VALUES.slice(2).join(", ")})
     where workspace_id = $1 and id = $2 and version = $${PARAMS + 1}
     returning id`,
    [...topicParams(t), t.version - 1],
  );
  if (rows.length > 0) await syncTopicTags(tx, t.workspace_id, t.id);
  return rows.length > 0;
}

/** Whether `e` is the unique violation of a slug another topic holds. */
export function isSlugTaken(e: unknown): boolean {
  if (sqlState(e) !== UNIQUE_VIOLATION) return false;
  // postgres.js names the constraint `constraint_name`, PGlite `constraint`.
  const err = e as { constraint_name?: unknown; constraint?: unknown };
  return (err.constraint_name ?? err.constraint) === "topics_slug_key";
}

/** What a writer needs of the current row, read under a row lock (`for update`). */
export interface LockedTopic {
  id: string;
  slug: string;
  tags: string[];
  status: string;
  version: number;
}

/**
 * Locks the topics of `ids` (in id order, so that two writers locking overlapping sets never wait
 * on each other crosswise) and returns those that exist.
 */
export async function lockTopics(tx: SqlDriver, workspaceId: string, ids: string[]): Promise<Map<string, LockedTopic>> {
  const rows = await tx.query<Row>(
    `select id, slug, tags, status, version from topics
     where workspace_id = $1 and id = any($2::uuid[])
     order by id
     for update`,
    [workspaceId, ids],
  );
  return new Map(
    rows.map((
      r,
    ) => [str(r.id), { id: str(r.id), slug: str(r.slug), tags: r.tags as string[], status: str(r.status), version: Number(r.version) }]),
  );
}

/**
 * Writes the next version of a locked topic and its event, moves its slug's redirects, and adds
 * its tag changes to `deltas` (applied once, in name order, by the caller). Shared by the topic
 * and tag stores.
 */
export async function writeVersion(tx: SqlDriver, w: TopicWrite, cur: LockedTopic, deltas: TagDeltas): Promise<void> {
  if (!(await updateTopicRow(tx, w.topic))) throw new Error(`Topic ${w.topic.id} is not at version ${w.topic.version - 1}`);
  await moveSlug(tx, w.topic, cur.slug);
  await insertEvent(tx, w.event);
  addTagDeltas(deltas, cur, w.topic);
}

// ---- events ----

export const EVENT_COLUMNS = "workspace_id, id, topic_id, topic_slug, repo_id, type, version, actor_id, via, at, data, snapshot";
/** An event as the timeline lists it: without its snapshot, which is not even read. */
export const TIMELINE_COLUMNS = EVENT_COLUMNS.replace("snapshot", "null::jsonb as snapshot");

export function toTopicEvent(r: Row): TopicEvent {
  return {
    id: str(r.id),
    workspace_id: str(r.workspace_id),
    topic_id: str(r.topic_id),
    topic_slug: str(r.topic_slug),
    repo_id: strOrNull(r.repo_id),
    type: r.type as TopicEventType,
    version: Number(r.version),
    actor_id: strOrNull(r.actor_id),
    via: r.via as ApprovedVia,
    at: iso(r.at),
    data: r.data as Record<string, unknown>,
    snapshot: (r.snapshot ?? null) as Topic | null,
  };
}

export async function insertEvent(tx: SqlDriver, e: TopicEvent): Promise<void> {
  await tx.query(
    `insert into topic_events (${EVENT_COLUMNS}) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
    [e.workspace_id, e.id, e.topic_id, e.topic_slug, e.repo_id, e.type, e.version, e.actor_id, e.via, e.at, e.data, e.snapshot],
  );
}

// ---- redirects ----

/**
 * The redirects a slug change implies: the slug the topic takes stops being a redirect, and the
 * one it leaves (if it changed) becomes one, to this topic.
 */
export async function moveSlug(tx: SqlDriver, t: Topic, previousSlug: string | null): Promise<void> {
  if (previousSlug === t.slug) return;
  await tx.query(`delete from topic_redirects where workspace_id = $1 and slug = $2`, [t.workspace_id, t.slug]);
  if (previousSlug === null) return;
  await tx.query(
    `insert into topic_redirects (workspace_id, slug, topic_id) values ($1, $2, $3)
     on conflict (workspace_id, slug) do update set topic_id = excluded.topic_id`,
    [t.workspace_id, previousSlug, t.id],
  );
}

// ---- the tag registry ----

export const TAG_COLUMNS = "name, description, topic_count, created_at, updated_at";

export function toTagView(r: Row): TagView {
  return {
    name: str(r.name),
    description: strOrNull(r.description),
    topic_count: Number(r.topic_count),
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
  };
}

export function toTag(workspaceId: string, r: Row): Tag {
  const { topic_count: _, ...tag } = toTagView(r);
  return { workspace_id: workspaceId, ...tag };
}

/**
 * Per tag name, how many topics gained (+) or lost (-) it: all of them (`topic_count`), and those
 * not archived (`live_count`, what a list filtered by one tag counts).
 */
export type TagDeltas = Map<string, { all: number; live: number }>;

/** A topic's side of a change, for its tag counts: null when it does not exist (before an insert, after a delete). */
export type TagSide = { tags: readonly string[]; status: string } | null;

export function addTagDeltas(into: TagDeltas, before: TagSide, after: TagSide): TagDeltas {
  const was = new Set(before?.tags ?? []);
  const is = new Set(after?.tags ?? []);
  const wasLive = before !== null && before.status !== "archived";
  const isLive = after !== null && after.status !== "archived";
  for (const n of new Set([...was, ...is])) {
    const all = Number(is.has(n)) - Number(was.has(n));
    const live = Number(is.has(n) && isLive) - Number(was.has(n) && wasLive);
    if (all === 0 && live === 0) continue;
    const d = into.get(n) ?? { all: 0, live: 0 };
    into.set(n, { all: d.all + all, live: d.live + live });
  }
  return into;
}

/**
 * Applies counts to the registry in one statement, registering names gained for the first time
 * (no description, created at `at`). Rows are touched in name order (bytewise, as the key), so
 * concurrent topic writes sharing tags queue on them instead of deadlocking. A name lost that is
 * not registered is left alone rather than registered with a negative count.
 */
export async function applyTagDeltas(tx: SqlDriver, workspaceId: string, deltas: TagDeltas, at: string): Promise<void> {
  const changed = [...deltas].filter(([, d]) => d.all !== 0 || d.live !== 0);
  if (changed.length === 0) return;
  await tx.query(
    `insert into tags as g (workspace_id, name, description, topic_count, live_count, created_at, updated_at)
     select $1, d.name, null, d.all_delta, d.live_delta, $5, $5
     from unnest($2::text[], $3::int[], $4::int[]) as d (name, all_delta, live_delta)
     where d.all_delta > 0 or exists (select 1 from tags x where x.workspace_id = $1 and x.name = d.name)
     order by d.name collate "C"
     on conflict (workspace_id, name) do update
       set topic_count = g.topic_count + excluded.topic_count, live_count = g.live_count + excluded.live_count`,
    [workspaceId, changed.map(([n]) => n), changed.map(([, d]) => d.all), changed.map(([, d]) => d.live), at],
  );
}
