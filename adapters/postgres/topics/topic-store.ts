import { isUuid } from "../../../core/kernel/ids.ts";
import type { OffsetPage } from "../../../core/kernel/paging.ts";
import type { Topic, TopicEvent } from "../../../core/topics/model.ts";
import type {
  ReadOptions,
  Resolved,
  SearchResult,
  StaleFilter,
  TimelineFilter,
  TopicFilter,
  TopicSearch,
  TopicStore,
  TopicWrite,
} from "../../../core/topics/ports.ts";
import { FIELD_WEIGHT } from "../../../core/topics/search-rank.ts";
import type { Listed } from "../../../core/workspaces/ports.ts";
import { inTransaction, PLAN_EACH, type SqlDriver, sqlState } from "../driver.ts";
import { listPage, pageParams } from "../listing.ts";
import type { Row } from "../row-values.ts";
import { listByTag } from "./topic-tag-list.ts";
import {
  addTagDeltas,
  applyTagDeltas,
  EVENT_COLUMNS,
  insertEvent,
  insertTopicRow,
  isSlugTaken,
  lockTopics,
  moveSlug,
  type TagDeltas,
  TIMELINE_COLUMNS,
  topicColumns,
  toTopic,
  toTopicEvent,
  writeVersion,
} from "./topic-rows.ts";
import {
  COUNT_SQL,
  ESTIMATE_SQL,
  FEW_MATCHES,
  matchParams,
  oneWordBodyOnlySql,
  oneWordPageAndCountSql,
  oneWordPageSql,
  type OneWordParams,
  oneWordParams,
  rankRange,
} from "./topic-search-sql.ts";

const NONE = { items: [], total: 0 };
/** Above this many times the count cap in the planner's estimate, the estimate is the total. */
const ESTIMATE_BEYOND = 2;

/** `Plan Rows` of the top node of an `explain (format json)`, as either client returns it. */
function planRows(rows: Row[]): number {
  const raw = rows[0]?.["QUERY PLAN"];
  const doc = (typeof raw === "string" ? JSON.parse(raw) : raw) as Array<{ Plan: { "Plan Rows": number } }>;
  return doc[0]?.Plan["Plan Rows"] ?? 0;
}

const DEADLOCK_DETECTED = "40P01";
const MAX_WRITE_ATTEMPTS = 3;

/** `compareListed` in SQL, on the `page` alias too (see listing.ts). */
const LIST_ORDER = "drifted desc, trust_rank desc, updated_at desc, id desc";
/** `compareRanked` in SQL, on a search's `score`. */
const RANKED_ORDER = "score desc, trust_rank desc, updated_at desc, id desc";

/** What a version-checked write of existing topics may refuse. */
type Refusal = "version_conflict" | "not_found" | "slug_taken";

/**
 * SQL conditions on `topics` for a filter, appending their parameters to `params`. Null when the
 * filter can match nothing (a repo id that is no uuid), so no malformed value reaches a cast.
 */
function conditions(
  f: {
    tags?: string[];
    stale?: StaleFilter;
    kind?: string;
    origin?: string;
    repoId?: string;
    hasExternal?: boolean;
    drifted?: boolean;
    hasOwner?: boolean;
    hasAnchors?: boolean;
  },
  params: unknown[],
): string[] | null {
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const out: string[] = [];
  if (f.tags) out.push(`tags && ${p(f.tags)}::text[]`);
  if (f.stale) {
    const stale = `(status = 'reviewed' and approved_at is not null and approved_at < ${p(f.stale.before)}::timestamptz)`;
    out.push(f.stale.is ? stale : `not ${stale}`);
  }
  if (f.kind) out.push(`kind = ${p(f.kind)}`);
  if (f.origin) out.push(`origin = ${p(f.origin)}`);
  if (f.repoId) {
    if (!isUuid(f.repoId)) return null;
    out.push(`repo_id = ${p(f.repoId)}::uuid`);
  }
  if (f.hasExternal !== undefined) out.push(f.hasExternal ? "source_url is not null" : "source_url is null");
  if (f.drifted !== undefined) out.push(f.drifted ? "drifted" : "not drifted");
  if (f.hasOwner !== undefined) out.push(f.hasOwner ? "owner_id is not null" : "owner_id is null");
  if (f.hasAnchors !== undefined) out.push(f.hasAnchors ? "cardinality(anchors) > 0" : "cardinality(anchors) = 0");
  return out;
}

/** The tag of a filter by one tag and nothing else (the common case, served by `topic_tags`); else null. */
function onlyOneTag(f: TopicFilter): string | null {
  const others = Object.entries(f).some(([k, v]) => k !== "tags" && v !== undefined);
  return !others && f.tags?.length === 1 ? f.tags[0]! : null;
}

/**
 * A tsquery holding every term: each quoted as a lexeme (`'a' & 'b'`), so PostgreSQL takes it as
 * given, with no parser or dictionary. Terms come from core's tokenizer (letters and digits);
 * quotes and backslashes are escaped all the same.
 */
function allOf(terms: readonly string[]): string {
  return terms.map((t) => `'${t.replace(/\\/g, "\\\\").replace(/'/g, "''")}'`).join(" & ");
}

export class PostgresTopicStore implements TopicStore {
  constructor(private readonly db: SqlDriver) {}

  async get(workspaceId: string, topicId: string): Promise<Topic | null> {
    if (!isUuid(workspaceId) || !isUuid(topicId)) return null;
    const rows = await this.db.query<Row>(`select ${topicColumns()} from topics where workspace_id = $1 and id = $2`, [
      workspaceId,
      topicId,
    ]);
    return rows[0] ? toTopic(rows[0]) : null;
  }

  async getMany(workspaceId: string, topicIds: readonly string[]): Promise<Topic[]> {
    const ids = [...new Set(topicIds)].filter(isUuid);
    if (!isUuid(workspaceId) || ids.length === 0) return [];
    const rows = await this.db.query<Row>(`select ${topicColumns()} from topics where workspace_id = $1 and id = any($2::uuid[])`, [
      workspaceId,
      ids,
    ]);
    return rows.map(toTopic);
  }

  async resolve(workspaceId: string, slug: string): Promise<{ topic: Topic; redirectedFrom: string | null } | null> {
    if (!isUuid(workspaceId)) return null;
    // The live slug wins; a redirect never holds a live slug, but the order makes it certain.
    const rows = await this.db.query<Row>(
      `select * from (
         select ${topicColumns("t")}, null::text as redirected_from
         from topics t where t.workspace_id = $1 and t.slug = $2
         union all
         select ${topicColumns("t")}, r.slug as redirected_from
         from topic_redirects r join topics t on t.workspace_id = r.workspace_id and t.id = r.topic_id
         where r.workspace_id = $1 and r.slug = $2
       ) found
       order by redirected_from nulls first
       limit 1`,
      [workspaceId, slug],
    );
    const r = rows[0];
    return r ? { topic: toTopic(r), redirectedFrom: (r.redirected_from as string | null) ?? null } : null;
  }

  async resolveMany(workspaceId: string, slugs: readonly string[]): Promise<Map<string, Resolved>> {
    const asked = [...new Set(slugs)];
    const out = new Map<string, Resolved>();
    if (!isUuid(workspaceId) || asked.length === 0) return out;
    // One statement over both unique keys, (workspace_id, slug) of topics and of topic_redirects.
    const rows = await this.db.query<Row>(
      `select ${topicColumns("t")}, t.slug as asked, null::text as redirected_from
       from topics t where t.workspace_id = $1 and t.slug = any($2::text[])
       union all
       select ${topicColumns("t")}, r.slug as asked, r.slug as redirected_from
       from topic_redirects r join topics t on t.workspace_id = r.workspace_id and t.id = r.topic_id
       where r.workspace_id = $1 and r.slug = any($2::text[])`,
      [workspaceId, asked],
    );
    for (const r of rows) {
      const redirectedFrom = (r.redirected_from as string | null) ?? null;
      // The live slug wins over a redirect (a redirect never holds a live slug; this makes it certain).
      if (redirectedFrom === null || !out.has(r.asked as string)) out.set(r.asked as string, { topic: toTopic(r), redirectedFrom });
    }
    return out;
  }

  list(workspaceId: string, filter: TopicFilter, page: OffsetPage, options: ReadOptions = {}): Promise<Listed<Topic>> {
    if (!isUuid(workspaceId)) return Promise.resolve(NONE);
    const tag = onlyOneTag(filter);
    if (tag !== null) return listByTag(this.db, workspaceId, tag, page, options.bodyChars);
    const params: unknown[] = [workspaceId];
    // Written so that the planner sees the partial index's predicate (status <> 'archived').
    const where = ["workspace_id = $1", filter.status === undefined ? "status <> 'archived'" : `status = $${params.push(filter.status)}`];
    const more = conditions(filter, params);
    if (more === null) return Promise.resolve(NONE);
    where.push(...more);
    const [limit, offset] = pageParams(page);
    params.push(limit, offset);
    const filtered = `from topics where ${where.join(" and ")}`;
    const count = `select count(*)::int as total ${filtered}`;
    // The page's ids first, from the sort keys alone; only its rows are then read whole (a body is
    // kilobytes, and reading it for every filtered row before the sort cost more than the rest).
    return listPage(this.db, {
      page: `select ${topicColumns("t", options.bodyChars)}, t.drifted, t.trust_rank
             from (select id ${filtered} order by ${LIST_ORDER} limit $${params.length - 1} offset $${params.length}) k
             join topics t on t.workspace_id = $1 and t.id = k.id`,
      count,
      order: LIST_ORDER.split(", ").map((c) => `page.${c}`).join(", "),
      params,
      map: toTopic,
    }, PLAN_EACH);
  }

  async anchoredAt(
    workspaceId: string,
    repoId: string | null,
    bases: string[],
    limit: number,
    options: ReadOptions = {},
  ): Promise<Topic[]> {
    if (!isUuid(workspaceId) || bases.length === 0 || limit <= 0) return [];
    if (repoId !== null && !isUuid(repoId)) return [];
    const rows = await this.db.query<Row>(
      `select ${topicColumns("topics", options.bodyChars)} from topics
       where workspace_id = $1 and status <> 'archived' and anchor_bases && $2::text[] and ($3::uuid is null or repo_id = $3::uuid)
       order by ${LIST_ORDER} limit $4`,
      [workspaceId, bases, repoId, limit],
      PLAN_EACH,
    );
    return rows.map(toTopic);
  }

  /**
   * `compareRanked` without scoring every match. One word, unfiltered (what people and retrieve
   * search most): `searchOneWord`. Otherwise: a topic with a query word in its title or tags
   * scores above the number of words; one with every word in its body only scores exactly that.
   * So the first are ranked in full (few, found by the GIN indexes on the term arrays), and the
   * page is filled with the second in trust, recency, id order, read off `topics_rank_idx` until
   * the page is full. The total is counted up to `countCap`.
   */
  async search(workspaceId: string, s: TopicSearch): Promise<SearchResult> {
    if (!isUuid(workspaceId) || s.terms.length === 0) return NONE;
    const ranks = rankRange(s.statuses);
    if (s.terms.length === 1 && ranks !== null && !s.tags && !s.stale) return this.searchOneWord(workspaceId, s.terms[0]!, ranks, s);
    const params: unknown[] = [workspaceId, s.statuses, allOf(s.terms)];
    // `status <> 'archived'` lets the planner use the partial indexes; statuses never hold it.
    const where = ["workspace_id = $1", "status <> 'archived'", "status = any($2::text[])", "search @@ $3::tsquery"];
    const more = conditions(s, params);
    if (more === null) return NONE;
    where.push(...more);
    const limit = Math.max(0, Math.trunc(s.limit));
    const cap = s.countCap === undefined ? null : Math.max(0, Math.trunc(s.countCap));
    const cols = topicColumns("topics", s.bodyChars);
    // The ranking queries take the terms and the limit after the filter's parameters.
    const n = params.length;
    const terms = `$${n + 1}::text[]`;
    const head = `(title_terms && ${terms} or tag_terms && ${terms})`;
    const score = `(select sum(case when q = any(title_terms) then ${FIELD_WEIGHT.title}
                                    when q = any(tag_terms) then ${FIELD_WEIGHT.tags}
                                    else ${FIELD_WEIGHT.body} end)
                    from unnest(${terms}) as q)`;
    const [counted, ranked] = await Promise.all([
      this.countMatches(where, params, cap),
      limit === 0 ? Promise.resolve([] as Row[]) : this.db.query<Row>(
        `select ${cols}, trust_rank, ${score} as score from topics
             where ${where.join(" and ")} and ${head}
             order by ${RANKED_ORDER} limit $${n + 2}`,
        [...params, s.terms, limit],
        PLAN_EACH,
      ),
    ]);
    const rows = [...ranked];
    if (rows.length < limit) {
      rows.push(
        ...(await this.db.query<Row>(
          `select ${cols} from topics
           where ${where.join(" and ")} and not ${head}
           order by trust_rank desc, updated_at desc, id desc limit $${n + 2}`,
          [...params, s.terms, limit - rows.length],
          PLAN_EACH,
        )),
      );
    }
    return { items: rows.map(toTopic), ...counted };
  }

  /**
   * `search` for one word, unfiltered (topic-search-sql.ts): the page's title and tag hits off
   * `topic_head_terms`, body-only hits when they leave room, read as the planner's estimate of
   * the word's matches says is cheaper. The total as `countMatches` gives it: beyond twice the
   * cap, the estimate.
   */
  private async searchOneWord(workspaceId: string, term: string, ranks: [number, number], s: TopicSearch): Promise<SearchResult> {
    const limit = Math.max(0, Math.trunc(s.limit));
    const cap = s.countCap === undefined ? null : Math.max(0, Math.trunc(s.countCap));
    const cols = topicColumns("t", s.bodyChars);
    const p: OneWordParams = { workspaceId, term, ranks, limit, tsquery: allOf([term]), countUpTo: cap === null ? null : cap + 1 };
    const items = (rows: Row[]) => rows.filter((r) => r.id !== null && r.id !== undefined).map(toTopic);
    const estimate = Math.round(Number(planRows(await this.db.query<Row>(ESTIMATE_SQL, matchParams(p), PLAN_EACH))));
    if (estimate <= FEW_MATCHES) {
      const rows = await this.db.query<Row>(oneWordPageAndCountSql(cols), oneWordParams(p, "count"), PLAN_EACH);
      const n = Number(rows[0]?.search_total__ ?? 0);
      return { items: items(rows), ...(cap !== null && n > cap ? { total: cap, capped: true } : { total: n, capped: false }) };
    }
    // One index range, the same plan whatever the word: no PLAN_EACH, its plan is cached.
    const rows = limit === 0 ? [] : await this.db.query<Row>(oneWordPageSql(cols), oneWordParams(p, "page"));
    if (rows.length < limit) {
      rows.push(
        ...(await this.db.query<Row>(oneWordBodyOnlySql(cols), oneWordParams({ ...p, limit: limit - rows.length }, "match"), PLAN_EACH)),
      );
    }
    if (cap !== null && estimate > ESTIMATE_BEYOND * cap) return { items: items(rows), total: Math.max(estimate, cap + 1), capped: true };
    const counted = await this.db.query<Row>(COUNT_SQL, [...matchParams(p), p.countUpTo], PLAN_EACH);
    const n = Number(counted[0]?.n ?? 0);
    return { items: items(rows), ...(cap !== null && n > cap ? { total: cap, capped: true } : { total: n, capped: false }) };
  }

  /**
   * The matches of a search, counted exactly up to `cap`. Beyond it, the planner's estimate
   * (from the GIN statistics, at the cost of planning only) stands in: counting every holder of a
   * common word reads most of the table, which no page of 50 should pay for.
   */
  private async countMatches(where: string[], params: unknown[], cap: number | null): Promise<{ total: number; capped: boolean }> {
    const from = `from topics where ${where.join(" and ")}`;
    if (cap === 0) return { total: 0, capped: true };
    if (cap === null) {
      const rows = await this.db.query<Row>(`select count(*)::int as n ${from}`, params, PLAN_EACH);
      return { total: Number(rows[0]?.n ?? 0), capped: false };
    }
    const plan = await this.db.query<Row>(`explain (format json) select 1 ${from}`, params, PLAN_EACH);
    const estimate = Math.round(Number(planRows(plan)));
    if (estimate > ESTIMATE_BEYOND * cap) return { total: Math.max(estimate, cap + 1), capped: true };
    const rows = await this.db.query<Row>(`select count(*)::int as n from (select 1 ${from} limit ${cap + 1}) m`, params, PLAN_EACH);
    const n = Number(rows[0]?.n ?? 0);
    return n > cap ? { total: cap, capped: true } : { total: n, capped: false };
  }

  async history(workspaceId: string, topicId: string, limit: number): Promise<TopicEvent[]> {
    if (!isUuid(workspaceId) || !isUuid(topicId)) return [];
    const rows = await this.db.query<Row>(
      `select ${EVENT_COLUMNS} from topic_events
       where workspace_id = $1 and topic_id = $2 and snapshot is not null
       order by version desc limit $3`,
      [workspaceId, topicId, Math.max(0, Math.trunc(limit))],
    );
    return rows.map(toTopicEvent);
  }

  timeline(workspaceId: string, filter: TimelineFilter, page: OffsetPage): Promise<Listed<TopicEvent>> {
    if (!isUuid(workspaceId)) return Promise.resolve(NONE);
    const params: unknown[] = [workspaceId];
    const where = ["workspace_id = $1"];
    if (filter.type) where.push(`type = $${params.push(filter.type)}`);
    if (filter.repoId) {
      if (!isUuid(filter.repoId)) return Promise.resolve(NONE);
      where.push(`repo_id = $${params.push(filter.repoId)}::uuid`);
    }
    const [limit, offset] = pageParams(page);
    params.push(limit, offset);
    const filtered = `from topic_events where ${where.join(" and ")}`;
    return listPage(this.db, {
      page: `select ${TIMELINE_COLUMNS} ${filtered} order by at desc, id desc limit $${params.length - 1} offset $${params.length}`,
      count: `select count(*)::int as total ${filtered}`,
      order: "page.at desc, page.id desc",
      params,
      map: toTopicEvent,
    });
  }

  async insert(w: TopicWrite): Promise<"ok" | "slug_taken"> {
    // Ids are minted by core; a malformed one is a bug, not a refusal.
    if (!isUuid(w.topic.workspace_id) || !isUuid(w.topic.id)) throw new TypeError("A topic's workspace_id and id must be uuids");
    return inTransaction<"ok" | "slug_taken">(this.db, async (tx, abort) => {
      // First, before anything else is written: `on conflict do nothing` waits for a concurrent
      // insert of the same slug, then skips, with no error to poison the transaction.
      if (!(await insertTopicRow(tx, w.topic))) return abort("slug_taken");
      await moveSlug(tx, w.topic, null);
      await insertEvent(tx, w.event);
      await applyTagDeltas(tx, w.topic.workspace_id, addTagDeltas(new Map(), null, w.topic), w.topic.updated_at);
      return "ok";
    });
  }

  async update(w: TopicWrite): Promise<"ok" | Refusal> {
    if (!isUuid(w.topic.workspace_id) || !isUuid(w.topic.id)) return "not_found";
    return this.write(w.topic.workspace_id, [w], (r) => r);
  }

  async merge(source: TopicWrite, target: TopicWrite): Promise<"ok" | "version_conflict" | "not_found"> {
    const ws = target.topic.workspace_id;
    if (source.topic.workspace_id !== ws || ![ws, source.topic.id, target.topic.id].every(isUuid)) return "not_found";
    // The target first, as the port orders it; a slug refusal cannot happen (neither slug moves)
    // and would read as a conflict.
    return this.write(ws, [source, target], (r) => (r === "slug_taken" ? "version_conflict" : r), [target, source]);
  }

  async delete(
    workspaceId: string,
    topicId: string,
    expectedVersion: number | null,
    event: TopicEvent,
  ): Promise<"ok" | "version_conflict" | "not_found"> {
    if (!isUuid(workspaceId) || !isUuid(topicId)) return "not_found";
    return inTransaction<"ok" | "version_conflict" | "not_found">(this.db, async (tx, abort) => {
      const cur = (await lockTopics(tx, workspaceId, [topicId])).get(topicId);
      if (!cur) return abort("not_found");
      if (expectedVersion !== null && cur.version !== expectedVersion) return abort("version_conflict");
      // Its redirects go with it (their foreign key cascades); its events stay, without text.
      await tx.query(`delete from topics where workspace_id = $1 and id = $2`, [workspaceId, topicId]);
      await tx.query(`update topic_events set snapshot = null where workspace_id = $1 and topic_id = $2 and snapshot is not null`, [
        workspaceId,
        topicId,
      ]);
      await insertEvent(tx, event);
      await applyTagDeltas(tx, workspaceId, addTagDeltas(new Map(), cur, null), event.at);
      return "ok";
    });
  }

  /**
   * Applies version-checked writes of existing topics in one transaction: locks them all (id
   * order), checks each in `checks` order (refusals as the memory store reports them, mapped by
   * `refuse`), then writes each in `order`. A slug another topic holds surfaces as a unique
   * violation, which rolls the transaction back and is reported as "slug_taken".
   *
   * Two writers swapping slugs wait on each other's new slug (a unique index waits for the
   * holder's outcome); PostgreSQL breaks that cycle by failing one, which is run again: it then
   * finds the slug held, as the memory store would have told it.
   */
  private async write<R extends string>(
    workspaceId: string,
    checks: TopicWrite[],
    refuse: (r: Refusal) => R,
    order: TopicWrite[] = checks,
    attempt = 1,
  ): Promise<"ok" | R> {
    try {
      return await inTransaction<"ok" | R>(this.db, async (tx, abort) => {
        const locked = await lockTopics(tx, workspaceId, checks.map((w) => w.topic.id));
        for (const w of checks) {
          const cur = locked.get(w.topic.id);
          if (!cur) return abort(refuse("not_found"));
          if (cur.version !== w.topic.version - 1) return abort(refuse("version_conflict"));
        }
        const deltas: TagDeltas = new Map();
        for (const w of order) await writeVersion(tx, w, locked.get(w.topic.id)!, deltas);
        await applyTagDeltas(tx, workspaceId, deltas, order[0]!.topic.updated_at);
        return "ok";
      });
    } catch (e) {
      if (isSlugTaken(e)) return refuse("slug_taken");
      if (sqlState(e) === DEADLOCK_DETECTED && attempt < MAX_WRITE_ATTEMPTS) {
        return this.write(workspaceId, checks, refuse, order, attempt + 1);
      }
      throw e;
    }
  }
}
