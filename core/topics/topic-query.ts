import { badQuery, parseBool, parseEnum, type QueryBool, type QueryInt } from "../kernel/query-params.ts";
import { isUuid } from "../kernel/ids.ts";
import { type LimitRule, type OffsetPage, parseBoundedInt, parseOffsetPage } from "../kernel/paging.ts";
import type { Workspace } from "../workspaces/mod.ts";
import { TOPIC_STATUSES, type TopicStatus } from "./governance.ts";
import { TOPIC_EVENT_TYPES, type TopicEventType, type TopicOrigin } from "./model.ts";
import { TOPIC_VIEWS, type TopicViewName } from "./dto.ts";
import type { StaleFilter, TimelineFilter, TopicFilter } from "./ports.ts";
import { distinctTerms, MAX_QUERY_TERMS } from "./search-terms.ts";
import { staleBefore } from "./staleness.ts";
import { normalizeTagName } from "./tag-name.ts";

/**
 * Query strings of the topic routes, parsed into what the stores take. A parameter arrives as a
 * string, or typed by the server from its declared schema; this gives it meaning.
 */
export const SEARCH_LIMIT: LimitRule = { default: 50, max: 100 };
export const MAX_FILTER_TAGS = 20;
export const MAX_QUERY_LENGTH = 200;

export function parseView(raw: string | undefined, fallback: TopicViewName): TopicViewName {
  return parseEnum("view", raw, TOPIC_VIEWS) ?? fallback;
}

/**
 * `tags=a,b`: any-of, each name normalised. A name no tag can have (empty, too long) matches
 * nothing rather than failing, like any unknown tag.
 */
export function parseTagFilter(raw: string | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  const parts = raw.split(",").filter((s) => s.trim() !== "");
  if (parts.length > MAX_FILTER_TAGS) throw badQuery("tags", `at most ${MAX_FILTER_TAGS} tags`);
  const names = parts.map(normalizeTagName).filter((n): n is string => n !== null);
  return [...new Set(names)];
}

function parseStale(raw: QueryBool | undefined, ws: Workspace, now: Date): StaleFilter | undefined {
  const is = parseBool("stale", raw);
  return is === undefined ? undefined : { is, before: staleBefore(ws.settings.review_interval_days, now) };
}

export interface TopicListQuery {
  limit?: QueryInt;
  offset?: QueryInt;
  status?: string;
  tags?: string;
  stale?: QueryBool;
  docs?: QueryBool;
  auto?: QueryBool;
  manual?: QueryBool;
  repo?: string;
  has_external?: QueryBool;
  view?: string;
}

export function parseTopicListQuery(
  q: TopicListQuery,
  ws: Workspace,
  now: Date,
): { filter: TopicFilter; page: OffsetPage; view: TopicViewName } {
  const filter: TopicFilter = {};
  const status = parseEnum<TopicStatus>("status", q.status, TOPIC_STATUSES);
  if (status) filter.status = status;
  const tags = parseTagFilter(q.tags);
  if (tags) filter.tags = tags;
  const stale = parseStale(q.stale, ws, now);
  if (stale) filter.stale = stale;
  const docs = parseBool("docs", q.docs);
  if (docs !== undefined) filter.kind = docs ? "doc" : "note";
  const origin = parseOrigin(parseBool("auto", q.auto), parseBool("manual", q.manual));
  if (origin) filter.origin = origin;
  if (q.repo !== undefined) {
    if (!isUuid(q.repo)) throw badQuery("repo", "expected a repo id");
    filter.repoId = q.repo;
  }
  const hasExternal = parseBool("has_external", q.has_external);
  if (hasExternal !== undefined) filter.hasExternal = hasExternal;
  return { filter, page: parseOffsetPage(q), view: parseView(q.view, "summary") };
}

/** `auto=true` and `manual=false` both mean written by a program; asking for both at once is a 400. */
function parseOrigin(auto: boolean | undefined, manual: boolean | undefined): TopicOrigin | undefined {
  const fromAuto = auto === undefined ? undefined : auto ? "auto" : "manual";
  const fromManual = manual === undefined ? undefined : manual ? "manual" : "auto";
  if (fromAuto && fromManual && fromAuto !== fromManual) throw badQuery("manual", "contradicts auto");
  return fromAuto ?? fromManual;
}

export interface TopicSearchQuery {
  q?: string;
  include_notes?: QueryBool;
  tags?: string;
  limit?: QueryInt;
  stale?: QueryBool;
  view?: string;
}

export function parseSearchQuery(q: TopicSearchQuery, ws: Workspace, now: Date) {
  if (q.q === undefined || q.q.trim() === "") throw badQuery("q", "a search text is required");
  if (q.q.length > MAX_QUERY_LENGTH) throw badQuery("q", `at most ${MAX_QUERY_LENGTH} characters`);
  const terms = distinctTerms(q.q);
  if (terms.length > MAX_QUERY_TERMS) throw badQuery("q", `at most ${MAX_QUERY_TERMS} distinct words`);
  const includeNotes = parseBool("include_notes", q.include_notes) ?? false;
  const statuses: TopicStatus[] = includeNotes ? ["draft", "proposed", "reviewed"] : ["proposed", "reviewed"];
  return {
    terms,
    statuses,
    tags: parseTagFilter(q.tags),
    stale: parseStale(q.stale, ws, now),
    limit: parseBoundedInt("limit", q.limit, 1, SEARCH_LIMIT.max) ?? SEARCH_LIMIT.default,
    view: parseView(q.view, "summary"),
  };
}

export interface TimelineQuery {
  limit?: QueryInt;
  offset?: QueryInt;
  type?: string;
  repo_id?: string;
}

export function parseTimelineQuery(q: TimelineQuery): { filter: TimelineFilter; page: OffsetPage } {
  const filter: TimelineFilter = {};
  const type = parseEnum<TopicEventType>("type", q.type, TOPIC_EVENT_TYPES);
  if (type) filter.type = type;
  if (q.repo_id !== undefined) {
    if (!isUuid(q.repo_id)) throw badQuery("repo_id", "expected a repo id");
    filter.repoId = q.repo_id;
  }
  return { filter, page: parseOffsetPage(q) };
}
