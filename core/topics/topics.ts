import { actorKind, assertCanWrite, type Principal } from "../access/mod.ts";
import { releaseCapacity, withCapacity } from "../kernel/capacity.ts";
import { assertCanDeleteTopic } from "./policy.ts";
import type { TopicDeps } from "./ports.ts";
import { emit } from "../events/mod.ts";
import { conflict, versionConflict } from "../kernel/errors.ts";
import { uuidv7 } from "../kernel/ids.ts";
import { type OffsetResult, toOffsetResult } from "../kernel/paging.ts";
import { parseBool, type QueryBool } from "../kernel/query-params.ts";
import { checkRefs, type Workspace } from "../workspaces/mod.ts";
import type { Topic } from "./model.ts";
import type { CreateTopicDto, TopicEventView, TopicView, UpdateTopicDto } from "./dto.ts";
import { assertUsableSlug, findTopic, tagsOf, topicNotFound } from "./topic-access.ts";
import { normalizePatch, patchToTopic } from "./merge-patch.ts";
import { changeTopic, topicEvent } from "./topic-change.ts";
import {
  parseSearchQuery,
  parseTimelineQuery,
  parseTopicListQuery,
  parseView,
  type TimelineQuery,
  type TopicListQuery,
  type TopicSearchQuery,
} from "./topic-query.ts";
import type { TopicWrite } from "./ports.ts";
import { RESERVED_TOPIC_SLUGS, slugCandidate, slugFromTitle } from "./topic-slug.ts";
import { bodyCharsFor, toEventView, toRevisionView, toTopicView } from "./view.ts";
import { keptPage, type PageAnswer } from "./kept-pages.ts";

/** How many revisions `history=true` returns, newest first. */
export const HISTORY_LIMIT = 100;
const SLUG_ATTEMPTS = 20;

async function published(deps: TopicDeps, p: Principal | null, w: TopicWrite): Promise<void> {
  await emit(deps, w.topic.workspace_id, w.event.type, p, { topic_id: w.topic.id, slug: w.topic.slug, version: w.topic.version });
}

/** `view` with `anchor_validation` added when code context reports one (create and update answers). */
async function withAnchorReport(deps: TopicDeps, ws: Workspace, topic: Topic, view: TopicView): Promise<TopicView> {
  const validation = await deps.anchorReports?.validation(deps, ws, topic);
  if (validation) view.anchor_validation = validation;
  return view;
}

export async function createTopic(deps: TopicDeps, p: Principal, ws: Workspace, dto: CreateTopicDto): Promise<TopicView> {
  assertCanWrite(p, "create a topic");
  const tags = tagsOf(dto.tags ?? []);
  if (dto.slug) assertUsableSlug(dto.slug);
  await checkRefs(deps, ws, dto);
  const now = deps.clock.now();
  const at = now.toISOString();
  const base: Topic = {
    id: uuidv7(now.getTime()),
    workspace_id: ws.id,
    slug: dto.slug ?? slugFromTitle(dto.title),
    title: dto.title,
    body: dto.body ?? "",
    tags,
    area_id: dto.area_id ?? null,
    repo_id: dto.repo_id ?? null,
    anchors: [...new Set(dto.anchors ?? [])],
    kind: dto.kind ?? "note",
    origin: dto.origin ?? (actorKind(p) === "agent" ? "auto" : "manual"),
    source_url: dto.source_url ?? null,
    owner_id: p.identityId,
    author_id: p.identityId,
    status: dto.status ?? "draft",
    governance: { authoritative: false, approved_by: null, approved_at: null },
    approved_via: null,
    drift: null,
    merged_into: null,
    merged_from: [],
    version: 1,
    created_at: at,
    updated_at: at,
  };
  // The topic counts against the plan's limit from its claim; a create that fails gives it back.
  return await withCapacity(deps.capacity, ws, "topics", () => insertTopic(deps, p, ws, dto, base, now));
}

async function insertTopic(deps: TopicDeps, p: Principal, ws: Workspace, dto: CreateTopicDto, base: Topic, now: Date): Promise<TopicView> {
  // A slug the caller chose is theirs or a 409; a derived one takes the first free candidate.
  const attempts = dto.slug ? 1 : SLUG_ATTEMPTS;
  for (let n = 1; n <= attempts + 1; n++) {
    const slug = n <= attempts
      ? slugCandidate(base.slug, n)
      : slugCandidate(base.slug.slice(0, 60), Number.parseInt(base.id.slice(-8), 16));
    if (RESERVED_TOPIC_SLUGS.has(slug)) continue;
    const topic = { ...base, slug };
    const w = { topic, event: topicEvent(p, topic, "topic.created", now, { status: topic.status }) };
    if ((await deps.stores.topics.insert(w)) === "ok") {
      await published(deps, p, w);
      return withAnchorReport(deps, ws, topic, toTopicView(topic, ws, now, "full"));
    }
    if (dto.slug) break;
  }
  throw conflict(`Topic slug is taken: ${base.slug}`);
}

export async function getTopic(
  deps: TopicDeps,
  ws: Workspace,
  slug: string,
  query: { history?: QueryBool; view?: string; include_orphaned?: QueryBool },
): Promise<TopicView> {
  const { topic, redirectedFrom } = await findTopic(deps, ws, slug);
  const view = toTopicView(topic, ws, deps.clock.now(), parseView(query.view, "full"));
  if (redirectedFrom) view.redirected_from = redirectedFrom;
  if (parseBool("include_orphaned", query.include_orphaned)) {
    view.orphaned_anchors = (await deps.anchorReports?.orphaned(deps, ws, topic)) ?? [];
  }
  if (parseBool("history", query.history)) {
    const events = await deps.stores.topics.history(ws.id, topic.id, HISTORY_LIMIT);
    view.history = events.filter((e) => e.snapshot !== null).map((e) => toRevisionView(e as typeof e & { snapshot: Topic }));
  }
  return view;
}

export async function listTopics(deps: TopicDeps, ws: Workspace, query: TopicListQuery): Promise<OffsetResult<TopicView>> {
  return built(await listTopicPage(deps, ws, query, false));
}

/** A list's page, or its encoding when one is kept (ADR 049): what the list route answers. */
export async function listTopicPage(
  deps: TopicDeps,
  ws: Workspace,
  query: TopicListQuery,
  keep = true,
): Promise<PageAnswer<OffsetResult<TopicView>>> {
  const now = deps.clock.now();
  const { filter, page, view } = parseTopicListQuery(query, ws, now);
  if (filter.tags?.length === 0) return { page: toOffsetResult([], 0, page), keep: null };
  const store = deps.stores.topics;
  const answer = await store.list(ws.id, filter, page, { bodyChars: bodyCharsFor(view) });
  return keptPage(
    keep ? store.kept : undefined,
    answer,
    answer.items,
    ws,
    "list",
    view,
    now,
    () => toOffsetResult(answer.items.map((t) => toTopicView(t, ws, now, view)), answer.total, page),
  );
}

/** The page itself, for callers that answer views rather than bytes. */
function built<T>(answer: PageAnswer<T>): T {
  if ("json" in answer) throw new Error("A kept encoding was answered to a caller that asked for views");
  return answer.page;
}

/**
 * Search counts its matches exactly up to this many; beyond, `total_capped` is true and `total`
 * is this many or a store's estimate (counting every holder of a common word would cost a scan
 * per request).
 */
export const SEARCH_TOTAL_CAP = 1_000;

export async function searchTopics(
  deps: TopicDeps,
  ws: Workspace,
  query: TopicSearchQuery,
): Promise<OffsetResult<TopicView> & { total_capped: boolean }> {
  return built(await searchTopicPage(deps, ws, query, false));
}

/** A search's page, or its encoding when one is kept (ADR 049): what the search route answers. */
export async function searchTopicPage(
  deps: TopicDeps,
  ws: Workspace,
  query: TopicSearchQuery,
  keep = true,
): Promise<PageAnswer<OffsetResult<TopicView> & { total_capped: boolean }>> {
  const now = deps.clock.now();
  const { view, tags, stale, ...rest } = parseSearchQuery(query, ws, now);
  const page = { limit: rest.limit, offset: 0 };
  if (rest.terms.length === 0 || tags?.length === 0) return { page: { ...toOffsetResult([], 0, page), total_capped: false }, keep: null };
  const store = deps.stores.topics;
  const answer = await store.search(ws.id, {
    ...rest,
    ...(tags ? { tags } : {}),
    ...(stale ? { stale } : {}),
    countCap: SEARCH_TOTAL_CAP,
    bodyChars: bodyCharsFor(view),
  });
  return keptPage(keep ? store.kept : undefined, answer, answer.items, ws, "search", view, now, () => ({
    ...toOffsetResult(answer.items.map((t) => toTopicView(t, ws, now, view)), answer.total, page),
    total_capped: answer.capped ?? false,
  }));
}

export async function listTopicEvents(deps: TopicDeps, ws: Workspace, query: TimelineQuery): Promise<OffsetResult<TopicEventView>> {
  const { filter, page } = parseTimelineQuery(query);
  const { items, total } = await deps.stores.topics.timeline(ws.id, filter, page);
  return toOffsetResult(items.map(toEventView), total, page);
}

/** Writes `w` unless a concurrent change got there first; maps the store's refusals to errors. */
export async function commit(deps: TopicDeps, p: Principal, w: TopicWrite): Promise<void> {
  const result = await deps.stores.topics.update(w);
  if (result === "version_conflict") {
    const now = await deps.stores.topics.get(w.topic.workspace_id, w.topic.id);
    throw versionConflict("topic", now?.version ?? w.topic.version - 1);
  }
  if (result === "not_found") throw conflict("Cannot update topic: it was deleted meanwhile");
  if (result === "slug_taken") throw conflict(`Topic slug is taken: ${w.topic.slug}`);
  await published(deps, p, w);
}

export function checkVersion(topic: Topic, expected: number | undefined): void {
  if (expected !== undefined && expected !== topic.version) throw versionConflict("topic", topic.version);
}

export async function updateTopic(
  deps: TopicDeps,
  p: Principal,
  ws: Workspace,
  slug: string,
  dto: UpdateTopicDto,
  expected: number | undefined,
): Promise<TopicView> {
  assertCanWrite(p, "edit a topic");
  const { topic } = await findTopic(deps, ws, slug);
  checkVersion(topic, expected);
  if (topic.status === "archived") throw conflict("Cannot edit topic: it is archived", { current_status: topic.status });
  const { expected_version: _, ...fields } = dto;
  // The same merge patch as a suggested edit's: normalised, `null` read as removal.
  const patch = patchToTopic(normalizePatch(fields, tagsOf));
  await checkRefs(deps, ws, fields);
  const changed = Object.keys(patch).filter((k) => JSON.stringify(patch[k as keyof Topic]) !== JSON.stringify(topic[k as keyof Topic]));
  const now = deps.clock.now();
  if (changed.length === 0) return withAnchorReport(deps, ws, topic, toTopicView(topic, ws, now, "full"));
  const w = changeTopic(p, topic, patch, "topic.updated", now, { fields: changed });
  await commit(deps, p, w);
  return withAnchorReport(deps, ws, w.topic, toTopicView(w.topic, ws, now, "full"));
}

/**
 * Deleting removes a topic and its text everywhere. Knowledge is the team's, so reviewed and
 * archived topics take owner/admin; the author may delete their own draft or proposal.
 */
export async function deleteTopic(
  deps: TopicDeps,
  p: Principal,
  ws: Workspace,
  slug: string,
  expected: number | undefined,
): Promise<string> {
  const { topic } = await findTopic(deps, ws, slug, { followMerge: false });
  assertCanDeleteTopic(p, topic);
  checkVersion(topic, expected);
  const now = deps.clock.now();
  const gone = { ...topic, version: topic.version + 1, updated_at: now.toISOString() };
  const event = { ...topicEvent(p, gone, "topic.deleted", now), snapshot: null };
  const result = await deps.stores.topics.delete(ws.id, topic.id, topic.version, event);
  if (result === "version_conflict") {
    throw versionConflict("topic", (await deps.stores.topics.get(ws.id, topic.id))?.version ?? topic.version);
  }
  if (result === "not_found") throw topicNotFound();
  await releaseCapacity(deps.capacity, ws, "topics");
  // Its relations and suggested edits go with it (PostgreSQL cascades; the others are told).
  await deps.stores.relations.removeTopic(ws.id, topic.id);
  await deps.stores.proposals.removeTopic(ws.id, topic.id);
  await emit(deps, ws.id, "topic.deleted", p, { topic_id: topic.id, slug: topic.slug });
  return topic.id;
}
