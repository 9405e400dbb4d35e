import { describe, expect, test } from "bun:test";
import { isAppError } from "../../core/kernel/errors.ts";
import { compareListed, compareRanked, scoreTopic } from "../../core/topics/search-rank.ts";
import { distinctTerms, tokenize, topicTerms } from "../../core/topics/search-terms.ts";
import { parseSearchQuery, parseTagFilter, parseTopicListQuery } from "../../core/topics/topic-query.ts";
import { trustOf } from "../../core/topics/view.ts";
import type { Workspace } from "../../core/workspaces/model.ts";

const ws: Workspace = {
  id: "w",
  slug: "w",
  name: "w",
  plan: "free",
  settings: { review_interval_days: 90 },
  created_at: "2026-01-01T00:00:00.000Z",
  updated_at: "2026-01-01T00:00:00.000Z",
};
const now = new Date("2026-06-01T00:00:00.000Z");
const code = (fn: () => unknown) => {
  try {
    fn();
    return "ok";
  } catch (e) {
    return isAppError(e) ? e.code : String(e);
  }
};

describe("tokenize()", () => {
  test("tokenize() folds case and accents and splits on anything not a letter or digit", () => {
    expect(tokenize("Déploiement: API-v2 (ÉTÉ) 3.14")).toEqual(["deploiement", "api", "v2", "ete", "3", "14"]);
  });
  test("tokenize() keeps letters of every script and drops words over 64 characters", () => {
    expect(tokenize("東京 Москва")).toEqual(["東京", "москва"]);
    expect(tokenize(`${"a".repeat(65)} ok`)).toEqual(["ok"]);
  });
  test("distinctTerms() keeps first-seen order without repeats", () => {
    expect(distinctTerms("b a B c a")).toEqual(["b", "a", "c"]);
  });
  test("topicTerms() splits tag names into words", () => {
    expect(topicTerms({ title: "T", tags: ["ops-team"], body: "" }).tags).toEqual(["ops", "team"]);
  });
});

describe("scoreTopic()", () => {
  const terms = { title: new Set(["deploy"]), tags: new Set(["billing"]), body: new Set(["deploy", "billing", "retry"]) };
  test("scoreTopic() scores each term by the best field holding it", () => {
    expect(scoreTopic(terms, ["deploy"])).toBe(3);
    expect(scoreTopic(terms, ["billing"])).toBe(2);
    expect(scoreTopic(terms, ["retry"])).toBe(1);
    expect(scoreTopic(terms, ["deploy", "retry"])).toBe(4);
  });
  test("scoreTopic() is null when any term occurs nowhere", () => {
    expect(scoreTopic(terms, ["deploy", "nowhere"])).toBeNull();
  });
});

describe("ordering", () => {
  const r = (id: string, score: number, status: "draft" | "proposed" | "reviewed", updated_at = "2026-01-01") => ({
    id,
    score,
    status,
    updated_at,
  });
  test("compareRanked() orders by score, then trust, then recency, then id", () => {
    const rows = [r("a", 1, "reviewed"), r("b", 3, "draft"), r("c", 3, "reviewed"), r("d", 3, "reviewed", "2026-02-01")];
    expect(rows.sort(compareRanked).map((x) => x.id)).toEqual(["d", "c", "b", "a"]);
  });
  test("compareListed() puts drifted topics first", () => {
    const rows = [
      { id: "a", status: "reviewed" as const, updated_at: "2026-01-01", drift: null },
      { id: "b", status: "draft" as const, updated_at: "2026-01-01", drift: { files: [] } },
    ];
    expect(rows.sort(compareListed).map((x) => x.id)).toEqual(["b", "a"]);
  });
  test("trustOf() reads archived as draft: it makes no claim", () => {
    expect(trustOf("archived")).toBe("draft");
    expect(trustOf("reviewed")).toBe("reviewed");
  });
});

describe("topic query strings", () => {
  test("parseTagFilter() normalises names and treats impossible ones as unknown", () => {
    expect(parseTagFilter("Ops Team, API,,")).toEqual(["ops-team", "api"]);
    expect(parseTagFilter("   ")).toEqual([]);
    expect(parseTagFilter(`${"x".repeat(65)}`)).toEqual([]);
    expect(code(() => parseTagFilter(Array.from({ length: 21 }, (_, i) => `t${i}`).join(",")))).toBe("VALIDATION_FAILED");
  });
  test("parseTopicListQuery() maps each filter and refuses contradictions", () => {
    const { filter, page, view } = parseTopicListQuery({ docs: "true", auto: "false", has_external: "true", stale: "true" }, ws, now);
    expect(filter).toMatchObject({
      kind: "doc",
      origin: "manual",
      hasExternal: true,
      stale: { is: true, before: "2026-03-03T00:00:00.000Z" },
    });
    expect(page).toEqual({ limit: 50, offset: 0 });
    expect(view).toBe("summary");
    expect(code(() => parseTopicListQuery({ auto: "true", manual: "true" }, ws, now))).toBe("VALIDATION_FAILED");
    expect(code(() => parseTopicListQuery({ limit: "201" }, ws, now))).toBe("VALIDATION_FAILED");
  });
  test("parseSearchQuery() excludes notes unless asked and bounds words and limit", () => {
    expect(parseSearchQuery({ q: "Hello world" }, ws, now)).toMatchObject({
      terms: ["hello", "world"],
      statuses: ["proposed", "reviewed"],
      limit: 50,
    });
    expect(parseSearchQuery({ q: "x", include_notes: "true" }, ws, now).statuses).toEqual(["draft", "proposed", "reviewed"]);
    expect(code(() => parseSearchQuery({ q: "a b c d e f g h i" }, ws, now))).toBe("VALIDATION_FAILED");
    expect(code(() => parseSearchQuery({ q: "x", limit: "101" }, ws, now))).toBe("VALIDATION_FAILED");
  });
});
