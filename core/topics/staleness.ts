import type { TopicStatus } from "./governance.ts";

const DAY_MS = 86_400_000;

/**
 * A reviewed topic is stale when it was not vouched for (approved or re-vouched) within the
 * workspace's review interval. Only reviewed topics can be stale: the others make no claim yet.
 */
export function isStale(status: TopicStatus, approvedAt: string | null, reviewIntervalDays: number, now: Date): boolean {
  if (status !== "reviewed" || approvedAt === null) return false;
  return now.getTime() - Date.parse(approvedAt) > reviewIntervalDays * DAY_MS;
}

/** The instant before which an approval makes a reviewed topic stale: what a store filters on. */
export function staleBefore(reviewIntervalDays: number, now: Date): string {
  return new Date(now.getTime() - reviewIntervalDays * DAY_MS).toISOString();
}
