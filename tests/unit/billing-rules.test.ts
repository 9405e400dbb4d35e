import { describe, expect, test } from "bun:test";
import {
  admits,
  calendarMonth,
  creditsPriceCents,
  includedCreditsKey,
  limitsOf,
  overLimit,
  periodAt,
  planPriceCents,
  upgradeGrant,
} from "../../core/billing/mod.ts";

describe("billing rules", () => {
  test("limitsOf() gives the table's limits; an enterprise contract's unset limits are unlimited and its credits 0", () => {
    expect(limitsOf("free")).toEqual({ members: 5, topics: 1_000, collections: 5, records: 10_000, radar_credits_monthly: 0 });
    expect(limitsOf("team").radar_credits_monthly).toBe(2_000);
    expect(limitsOf("business").topics).toBeNull();
    expect(limitsOf("enterprise", { members: 1_000 })).toEqual({
      members: 1_000,
      topics: null,
      collections: null,
      records: null,
      radar_credits_monthly: 0,
    });
  });

  test("planPriceCents() charges a year as ten months; bought credits cost 5 cents each", () => {
    expect(planPriceCents("team", "month")).toBe(4_900);
    expect(planPriceCents("team", "year")).toBe(49_000);
    expect(planPriceCents("business", "year")).toBe(249_000);
    expect(planPriceCents("enterprise", "month")).toBeNull();
    expect(creditsPriceCents(100)).toBe(500);
  });

  test("overLimit() lists the kinds beyond their limit; admits() allows up to the limit exactly", () => {
    const limits = limitsOf("free");
    expect(overLimit({ members: 6, topics: 1_000, collections: 5, records: 10_001 }, limits)).toEqual(["members", "records"]);
    expect(overLimit({ members: 1_000_000, topics: 0, collections: 0, records: 0 }, limitsOf("enterprise"))).toEqual([]);
    expect(admits(limits, "collections", 4)).toBe(true);
    expect(admits(limits, "collections", 5)).toBe(false);
    expect(admits(limitsOf("business"), "topics", 10_000_000)).toBe(true);
  });

  test("upgradeGrant() is the rise in included credits, never negative", () => {
    expect(upgradeGrant(limitsOf("team"), limitsOf("business"))).toBe(8_000);
    expect(upgradeGrant(limitsOf("business"), limitsOf("team"))).toBe(0);
  });

  test("periodAt() is the provider's period when it holds the instant, else the UTC calendar month", () => {
    const at = new Date("2026-11-24T15:00:00Z");
    expect(calendarMonth(at)).toEqual({ start: "2026-11-01T00:00:00.000Z", end: "2026-12-01T00:00:00.000Z" });
    expect(calendarMonth(new Date("2026-12-31T23:59:59Z")).end).toBe("2027-01-01T00:00:00.000Z");
    const sub = { start: "2026-11-10T08:00:00.000Z", end: "2026-12-10T08:00:00.000Z" };
    expect(periodAt(at, sub)).toEqual(sub);
    expect(periodAt(new Date("2026-12-11T00:00:00Z"), sub)).toEqual(calendarMonth(new Date("2026-12-11T00:00:00Z")));
    expect(includedCreditsKey(sub)).toBe("plan.included:2026-11-10T08:00:00.000Z");
  });
});
