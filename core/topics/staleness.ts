import type { TopicStatus } from "./governance.ts";

const DAY_MS = 86_400_000;

/**
 * A reviewed topic is stale when it was not vouched for (approved or re-vouched) within the
 * workspace's review interval. Only reviewed topics can be stale: the others make no claim yet.
 */
export function isStale(status: TopicStatus, approvedAt: string | null, reviewIntervalDays: number, now: Date): boolean {
  if (status !== "reviewed" || approvedAt === null) return false;
  // Stored instants are canonical ISO strings (`toISOString`: 24 characters, UTC), which compare
  // as their instants do: against the threshold, computed once for a page's 50 topics rather than
  // a date parsed per topic. Anything else is parsed.
  if (approvedAt.length === 24 && approvedAt.charCodeAt(23) === Z && approvedAt.charCodeAt(10) === T) {
    const at = now.getTime();
    if (threshold.at !== at || threshold.days !== reviewIntervalDays) {
      threshold = { at, days: reviewIntervalDays, before: staleBefore(reviewIntervalDays, now) };
    }
    return approvedAt < threshold.before;
  }
  return now.getTime() - Date.parse(approvedAt) > reviewIntervalDays * DAY_MS;
}

const Z = 90;
const T = 84;
/** The last threshold computed: a list asks for the same instant and interval for each topic. */
let threshold = { at: Number.NaN, days: Number.NaN, before: "" };

/** The instant before which an approval makes a reviewed topic stale: what a store filters on. */
export function staleBefore(reviewIntervalDays: number, now: Date): string {
  return new Date(now.getTime() - reviewIntervalDays * DAY_MS).toISOString();
}

/**
 * The last instant (ms since the epoch) up to which `isStale` keeps the verdict it gives at `now`,
 * as the clock moves forward: a reviewed topic not yet stale turns stale just after
 * approved_at + the review interval; any other verdict never changes with time
 * (`Infinity`). What a kept page of views may be served until (ADR 049).
 */
export function staleVerdictHoldsUntil(status: TopicStatus, approvedAt: string | null, reviewIntervalDays: number, now: Date): number {
  if (status !== "reviewed" || approvedAt === null || isStale(status, approvedAt, reviewIntervalDays, now)) return Number.POSITIVE_INFINITY;
  const approved = Date.parse(approvedAt);
  // Unparseable: `isStale` never calls it stale (a NaN comparison is false), whatever the clock.
  return Number.isNaN(approved) ? Number.POSITIVE_INFINITY : approved + reviewIntervalDays * DAY_MS;
}
