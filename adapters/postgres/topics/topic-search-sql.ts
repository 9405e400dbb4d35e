/**
 * The SQL of a one-word search (docs/decisions/036-search-head-postings.md), the common case: a
 * person's single word, and every word retrieve searches on its own.
 *
 * For one word, `compareRanked` is: title hits (score 3), then tag hits (2), then body-only hits
 * (1), each in trust, recency, id order. `topic_head_terms` (migration 020) holds the first two
 * in exactly that order, so the page's title and tag hits are one backward index range, stopping
 * at the page's size however many topics hold the word.
 *
 * Body-only hits are read only when those leave room on the page, and how depends on how many
 * topics hold the word, which the planner estimates first (`ESTIMATE_SQL`):
 * - a few (`FEW_MATCHES` at most): every match is read off the GIN index, without its `search`
 *   (the index answers `@@` for a plain word without a recheck), then ranked; the total is
 *   counted from the same set (`oneWordPageAndCountSql`, one statement);
 * - more: the page first (`oneWordPageSql`), then, if room is left, `topics_rank_idx` is walked
 *   in trust order until it is filled (`oneWordBodyOnlySql`), each step reading a `search`: with
 *   that many holders, few steps.
 * Walking for a rare word reads every topic's `search` from TOAST (seconds at 100k topics);
 * reading every holder of a common word costs a heap visit each. The planner does not price
 * TOAST reads, so the choice is made here, from its estimate, not left to it.
 */
import type { TopicStatus } from "../../../core/topics/governance.ts";
import { trustRank } from "../../../core/topics/search-rank.ts";

/** At most this many estimated matches: body-only hits are read by matching, not by walking. */
export const FEW_MATCHES = 2_000;

/**
 * The trust ranks of `statuses` as one range `[lo, hi]`, or null when they are not one range
 * (or hold archived, which has no postings). The API searches proposed and reviewed, or draft
 * too: always one range.
 */
export function rankRange(statuses: readonly TopicStatus[]): [number, number] | null {
  const ranks = [...new Set(statuses.map(trustRank))].sort((a, b) => a - b);
  if (ranks.length === 0 || ranks[0]! < 1) return null;
  const lo = ranks[0]!;
  const hi = ranks[ranks.length - 1]!;
  return hi - lo + 1 === ranks.length ? [lo, hi] : null;
}

/**
 * Parameters of the statements below, `$1`... in this order: the workspace, the word, the lowest
 * and highest trust rank, the page's size; the word as a tsquery (statements that match); how
 * many matches to count at most, null for all (statements that count).
 */
export interface OneWordParams {
  workspaceId: string;
  term: string;
  ranks: [number, number];
  limit: number;
  tsquery: string;
  countUpTo: number | null;
}

export function oneWordParams(p: OneWordParams, upTo: "page" | "match" | "count"): unknown[] {
  const page: unknown[] = [p.workspaceId, p.term, p.ranks[0], p.ranks[1], p.limit];
  return upTo === "page" ? page : upTo === "match" ? [...page, p.tsquery] : [...page, p.tsquery, p.countUpTo];
}

/** The parameters of `ESTIMATE_SQL` and `COUNT_SQL`. */
export function matchParams(p: OneWordParams): unknown[] {
  return [p.workspaceId, p.ranks[0], p.ranks[1], p.tsquery];
}

/**
 * The topics holding the word, as `t`: `trust_rank` in the searched statuses' range stands for
 * their list (one rank per status), and `status <> 'archived'` lets the planner use the partial
 * indexes. `$ws`, `$lo`, `$hi`, `$q`: the parameters' numbers.
 */
const matching = (ws: string, lo: string, hi: string, q: string) =>
  `t.workspace_id = ${ws} and t.status <> 'archived' and t.trust_rank between ${lo} and ${hi} and t.search @@ ${q}::tsquery`;
const MATCHES = matching("$1", "$3", "$4", "$6");
/** Not a title or tag hit (those are `topic_head_terms`' rows). */
const BODY_ONLY = `not (t.title_terms @> array[$2::text] or t.tag_terms @> array[$2::text])`;

/** Estimates the matches without reading them: planning only (`Plan Rows` of the top node). */
export const ESTIMATE_SQL = `explain (format json) select 1 from topics t where ${matching("$1", "$2", "$3", "$4")}`;

/** Counts the matches, up to `$5` (null: all of them); `matchParams` and then `countUpTo`. */
export const COUNT_SQL = `select count(*)::int as n from (select 1 from topics t where ${matching("$1", "$2", "$3", "$4")} limit $5) m`;

/** The page's title and tag hits, `id` and `score`, in page order: a backward range of `topic_head_terms`' key. */
const HEAD = `select h.topic_id as id, h.weight as score, h.trust_rank, h.updated_at from topic_head_terms h
  where h.workspace_id = $1 and h.term = $2 and h.trust_rank between $3 and $4
  order by h.weight desc, h.trust_rank desc, h.updated_at desc, h.topic_id desc
  limit $5`;

/** `compareRanked` on rows with a `score`, prefixed by `alias` (a join or a union keeps no order). */
const pageOrder = (alias: string) => ["score", "trust_rank", "updated_at", "id"].map((c) => `${alias}${c} desc`).join(", ");

/** The page's rows (`cols` of `t`) for `keys`, a relation of their `id` and `score`, in page order. */
const rowsOf = (cols: string, keys: string) =>
  `select ${cols}, t.trust_rank, k.score from ${keys} k join topics t on t.workspace_id = $1 and t.id = k.id`;

/** The page when title and tag hits fill it, or the first of it when they do not (`oneWordBodyOnlySql` then). */
export function oneWordPageSql(cols: string): string {
  return `select p.* from (${rowsOf(cols, `(${HEAD})`)}) p order by ${pageOrder("p.")}`;
}

/** Body-only hits, walking `topics_rank_idx` in trust order; `$5` is the room the title and tag hits left. */
export function oneWordBodyOnlySql(cols: string): string {
  return `select ${cols}, 1 as score from topics t where ${MATCHES} and ${BODY_ONLY}
          order by t.trust_rank desc, t.updated_at desc, t.id desc limit $5`;
}

/**
 * The whole page and the matches counted (up to `$7`), in one statement, for a word estimated in
 * few topics. Every match is read once, off the GIN index (`materialized`: the planner may not
 * turn it into a walk of `topics_rank_idx`, see above), and serves both. The total comes back on
 * every row, and on one row of nulls when nothing matches.
 */
export function oneWordPageAndCountSql(cols: string): string {
  return `with head as (${HEAD}),
    matches as materialized (
      select t.id, t.trust_rank, t.updated_at, ${BODY_ONLY} as body_only from topics t where ${MATCHES}
    ),
    keys as (
      select id, score, trust_rank, updated_at from head
      union all
      select id, 1, trust_rank, updated_at from matches
      where body_only and (select count(*) from head) < $5
    ),
    page as (select id, score from keys order by ${pageOrder("")} limit $5)
    select c.n as search_total__, p.* from (select least(count(*), $7) as n from matches) c
    left join (${rowsOf(cols, "page")}) p on true
    order by ${pageOrder("p.")}`;
}
