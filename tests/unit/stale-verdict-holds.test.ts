import { describe, expect, test } from "bun:test";
import { isStale, staleVerdictHoldsUntil } from "../../core/topics/staleness.ts";
import { pageVerdictsHoldUntil } from "../../core/topics/kept-pages.ts";
import { topicFixture } from "../contract/fixtures.ts";

const DAY = 86_400_000;

describe("how long a stale verdict holds (ADR 049)", () => {
  const approved = "2026-03-01T09:00:00.000Z";
  const at = Date.parse(approved);

  test("a fresh reviewed topic keeps its verdict up to approved_at + the interval, and turns stale just after", () => {
    for (const approvedAt of [approved, "2026-03-01T10:00:00+01:00"]) {
      const until = staleVerdictHoldsUntil("reviewed", approvedAt, 90, new Date(at + DAY));
      expect(until).toBe(at + 90 * DAY);
      expect(isStale("reviewed", approvedAt, 90, new Date(at + DAY))).toBe(false);
      expect(isStale("reviewed", approvedAt, 90, new Date(until))).toBe(false);
      expect(isStale("reviewed", approvedAt, 90, new Date(until + 1))).toBe(true);
    }
  });

  test("a stale topic, an unreviewed one and one without approval keep theirs as the clock moves on", () => {
    expect(staleVerdictHoldsUntil("reviewed", approved, 90, new Date(at + 90 * DAY + 1))).toBe(Number.POSITIVE_INFINITY);
    expect(staleVerdictHoldsUntil("proposed", approved, 90, new Date(at))).toBe(Number.POSITIVE_INFINITY);
    expect(staleVerdictHoldsUntil("reviewed", null, 90, new Date(at))).toBe(Number.POSITIVE_INFINITY);
    expect(staleVerdictHoldsUntil("reviewed", "not a date", 90, new Date(at))).toBe(Number.POSITIVE_INFINITY);
  });

  test("a page holds until the first of its topics flips", () => {
    const ws = "00000000-0000-7000-8000-000000000001";
    const reviewed = (approvedAt: string) =>
      topicFixture(ws, { status: "reviewed", governance: { authoritative: true, approved_by: null, approved_at: approvedAt } });
    const topics = [reviewed(approved), reviewed("2026-02-20T09:00:00.000Z"), topicFixture(ws, { status: "draft" })];
    expect(pageVerdictsHoldUntil(topics, 30, new Date(at))).toBe(Date.parse("2026-02-20T09:00:00.000Z") + 30 * DAY);
    expect(pageVerdictsHoldUntil([], 30, new Date(at))).toBe(Number.POSITIVE_INFINITY);
  });
});
