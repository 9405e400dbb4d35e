/**
 * A tag page's or search's encoded answer, kept beside the store answer it was built from
 * (docs/decisions/049-kept-encoded-pages.md). The views of a page are a function of: the store
 * answer (which `KeptBeside` ties to the workspace's topic version, ADR 047), the view name, the
 * workspace's review interval, and the clock through each topic's `stale` verdict. A kept
 * encoding is served while the first three are the same and the clock is between the instant it
 * was built at and the first instant a listed topic's verdict flips. Nothing in a page depends on
 * who asks (the workspace scope decides whether they may).
 */
import type { Workspace } from "../workspaces/mod.ts";
import type { TopicViewName } from "./dto.ts";
import type { Topic } from "./model.ts";
import type { KeptBeside } from "./ports.ts";
import { staleVerdictHoldsUntil } from "./staleness.ts";

/** A page built from a store answer: its kept encoding, or the page built now and how to keep its encoding. */
export type PageAnswer<T> = { json: string } | { page: T; keep: ((json: string) => void) | null };

interface KeptPage {
  json: string;
  /** The instants (ms) between which its `stale` verdicts are those of the clock. */
  from: number;
  until: number;
}

/** The last instant at which every topic of a page still has the `stale` verdict it has at `now`. */
export function pageVerdictsHoldUntil(topics: readonly Topic[], reviewIntervalDays: number, now: Date): number {
  let until = Number.POSITIVE_INFINITY;
  for (const t of topics) until = Math.min(until, staleVerdictHoldsUntil(t.status, t.governance.approved_at, reviewIntervalDays, now));
  return until;
}

/**
 * The page `shape` (the route's answer: `list`, `search`) of `answer` in `view`: the encoding kept
 * beside it when still right at `now`, else `build()` and, when `kept` keeps anything, how to keep
 * the encoding of what is sent.
 */
export function keptPage<T>(
  kept: KeptBeside | undefined,
  answer: object,
  topics: readonly Topic[],
  ws: Workspace,
  shape: string,
  view: TopicViewName,
  now: Date,
  build: () => T,
): PageAnswer<T> {
  if (!kept) return { page: build(), keep: null };
  // Every input of a page's views other than the answer and the clock (view.ts: toTopicView).
  const days = ws.settings.review_interval_days;
  const key = `${shape}\u0000${view}\u0000${days}`;
  const at = now.getTime();
  const page = kept.get(answer, key) as KeptPage | undefined;
  if (page && page.from <= at && at <= page.until) return { json: page.json };
  const until = pageVerdictsHoldUntil(topics, days, now);
  return { page: build(), keep: (json) => kept.set(answer, key, { json, from: at, until } satisfies KeptPage, json.length) };
}
