import type { TopicStatus } from "./governance.ts";

/**
 * Relevance, the same on every backend. A topic matches when every query term occurs in its
 * title, tags or body. Each term scores by the best field it occurs in: title 3, tags 2, body 1;
 * so a title match outranks a body-only match. Equal scores order by trust (reviewed, proposed,
 * draft), then the most recently updated, then id.
 */
export const FIELD_WEIGHT = { title: 3, tags: 2, body: 1 } as const;

export function trustRank(status: TopicStatus): number {
  return status === "reviewed" ? 3 : status === "proposed" ? 2 : status === "draft" ? 1 : 0;
}

/** The score of a topic for `query` terms, or null when some term occurs nowhere. */
export function scoreTopic(
  terms: { title: ReadonlySet<string>; tags: ReadonlySet<string>; body: ReadonlySet<string> },
  query: readonly string[],
): number | null {
  let score = 0;
  for (const q of query) {
    if (terms.title.has(q)) score += FIELD_WEIGHT.title;
    else if (terms.tags.has(q)) score += FIELD_WEIGHT.tags;
    else if (terms.body.has(q)) score += FIELD_WEIGHT.body;
    else return null;
  }
  return score;
}

export interface Ranked {
  id: string;
  status: TopicStatus;
  updated_at: string;
  score: number;
}

/** Search order: score, trust, most recently updated, id (all descending). */
export function compareRanked(a: Ranked, b: Ranked): number {
  return (
    b.score - a.score ||
    trustRank(b.status) - trustRank(a.status) ||
    (a.updated_at < b.updated_at ? 1 : a.updated_at > b.updated_at ? -1 : 0) ||
    (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)
  );
}

/**
 * List order ("relevance" without a query): drifted first, then trust, then the most recently
 * updated, then id.
 */
export function compareListed(
  a: { id: string; status: TopicStatus; updated_at: string; drift: unknown },
  b: { id: string; status: TopicStatus; updated_at: string; drift: unknown },
): number {
  return (
    Number(b.drift !== null) - Number(a.drift !== null) ||
    trustRank(b.status) - trustRank(a.status) ||
    (a.updated_at < b.updated_at ? 1 : a.updated_at > b.updated_at ? -1 : 0) ||
    (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)
  );
}
