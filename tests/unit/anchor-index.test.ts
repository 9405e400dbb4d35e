import { describe, expect, test } from "bun:test";
import { picomatchMatcher } from "../../adapters/glob/picomatch-matcher.ts";
import { buildIndex, matchesOf, MAX_MEMO_PATHS } from "../../core/code-context/anchor-index.ts";
import { baseCandidates } from "../../core/code-context/anchor-base.ts";
import type { TopicAnchors } from "../../core/code-context/ports.ts";

/**
 * The cached anchor index's matching (ADR 038): each distinct pattern of a base tested once per
 * path, the topics holding it matched together, and each path's matches kept under the index.
 */
const topics: TopicAnchors[] = [
  { id: "a", repo_id: "r1", anchors: ["src/billing/**", "src/billing/*.ts"] },
  { id: "b", repo_id: "r1", anchors: ["src/billing/*.ts", "docs/**/*.md"] },
  { id: "c", repo_id: null, anchors: ["**/*.ts", "src/billing/invoice.ts", "src/{broken"] },
  { id: "d", repo_id: "r2", anchors: ["src/billing/**", "src/billing/**"] },
  { id: "e", repo_id: "r2", anchors: ["lib/**"] },
];

/** The reference: every anchor of every topic tested on its own. */
function naive(path: string): Array<[string, string[]]> {
  const out: Array<[string, string[]]> = [];
  for (const t of topics) {
    const anchors = t.anchors.filter((a) => {
      try {
        return picomatchMatcher.compile(a)(path);
      } catch {
        return false;
      }
    });
    if (anchors.length > 0) out.push([t.id, anchors]);
  }
  return out;
}

describe("anchor index", () => {
  test("matchesOf() finds what testing every anchor finds, anchors in each topic's order, duplicates kept", () => {
    const index = buildIndex("1", picomatchMatcher, topics);
    expect(index.size).toBe(10);
    // One entry per distinct pattern: "src/billing/*.ts" and "src/billing/**" are shared.
    expect(index.byBase.get("src/billing")!.map((p) => [p.pattern, p.topics.map((t) => t.id)])).toEqual([
      ["src/billing/**", ["a", "d", "d"]],
      ["src/billing/*.ts", ["a", "b"]],
    ]);
    for (const path of ["src/billing/invoice.ts", "src/billing/tax/rates.ts", "docs/a/b.md", "README.md", "lib/x.py", "src/{broken"]) {
      const got = matchesOf(index, path).map((m): [string, string[]] => [m.topic.id, m.anchors]);
      expect(got.sort((x, y) => (x[0] < y[0] ? -1 : 1))).toEqual(naive(path));
    }
    expect(matchesOf(index, "src/billing/invoice.ts").find((m) => m.topic.id === "c")!.anchors).toEqual([
      "**/*.ts",
      "src/billing/invoice.ts",
    ]);
  });

  test("a path's matches are kept with the index, within its bounds", () => {
    const index = buildIndex("1", picomatchMatcher, topics);
    const first = matchesOf(index, "src/billing/invoice.ts");
    expect(matchesOf(index, "src/billing/invoice.ts")).toBe(first);
    expect(index.memoMatches).toBe(first.length);
    // Matches held: at most twice the anchors plus 1,000; the oldest paths go first.
    for (let i = 0; i < 1_100; i++) matchesOf(index, `src/x${i}.ts`); // "**/*.ts": one match each
    expect(index.memoMatches).toBeLessThanOrEqual(2 * index.size + 1_000);
    expect(index.memo.has("src/billing/invoice.ts")).toBe(false);
    expect(index.memo.has("src/x1099.ts")).toBe(true);
    expect(MAX_MEMO_PATHS).toBe(20_000);
    expect(baseCandidates("src/x1.ts")).toEqual(["", "src", "src/x1.ts"]);
  });
});
