import { describe, expect, test } from "bun:test";
import { picomatchMatcher } from "../../adapters/glob/picomatch-matcher.ts";
import { anchorBase } from "../../core/code-context/anchor-base.ts";
import {
  checkAnchor,
  checkAnchors,
  orphanedAnchors,
  overbroadThreshold,
  rateAnchor,
  RepoFileList,
} from "../../core/code-context/anchor-validation.ts";
import { compareMatched } from "../../core/code-context/match-files.ts";
import { constantTimeEqual, hubSignature, verifyHubSignature } from "../../core/webhooks/signature.ts";
import { topicFixture } from "../contract/fixtures.ts";

const files = (n: number, dir = "gen") => Array.from({ length: n }, (_, i) => `${dir}/f${String(i).padStart(5, "0")}.ts`);

describe("anchor validation rule", () => {
  test("rateAnchor() is zero for no match, overbroad above max(500, 20% of the files), else ok", () => {
    expect(overbroadThreshold(10)).toBe(500);
    expect(overbroadThreshold(2_500)).toBe(500);
    expect(overbroadThreshold(50_000)).toBe(10_000);
    expect(rateAnchor(0, 10)).toBe("zero");
    expect(rateAnchor(10, 10)).toBe("ok");
    expect(rateAnchor(500, 1_000)).toBe("ok");
    expect(rateAnchor(501, 1_000)).toBe("overbroad");
    expect(rateAnchor(10_000, 50_000)).toBe("ok");
    expect(rateAnchor(10_001, 50_000)).toBe("overbroad");
  });

  test("checkAnchor() counts matches, keeps 5 samples in path order, and explains overbroad and uncompilable patterns", () => {
    const list = RepoFileList.of([...files(600), "src/b.ts", "src/a.ts", "src/deep/c.ts", "README.md"]);
    expect(checkAnchor(list, "src/*.ts", picomatchMatcher)).toEqual({
      pattern: "src/*.ts",
      matches: 2,
      rating: "ok",
      samples: ["src/a.ts", "src/b.ts"],
      warnings: [],
    });
    const broad = checkAnchor(list, "gen/**", picomatchMatcher);
    expect(broad).toMatchObject({ matches: 600, rating: "overbroad", samples: files(5) });
    expect(broad.warnings[0]).toContain("600 of 604");
    const bad = checkAnchor(list, "src/[x", picomatchMatcher);
    expect(bad).toMatchObject({ matches: 0, rating: "zero", samples: [] });
    expect(bad.warnings[0]).toStartWith("Cannot compile pattern:");
    expect(checkAnchor(list, "src/deep", picomatchMatcher).warnings).toEqual([
      "Names a directory: write `src/deep/**` to anchor the files in it",
    ]);
    expect(checkAnchor(RepoFileList.of(["a", "b"]), "**", picomatchMatcher).warnings).toEqual(["Matches every file of the repo"]);
  });

  test("checkAnchors() narrows by the literal base without changing what matches", () => {
    const all = [
      ...files(50, "src/billing"),
      ...files(50, "src/billing-old"),
      "src/billing",
      "src/billing.ts",
      "src/billingx/a.ts",
      "./odd.ts",
      "docs/a.md",
    ];
    const list = RepoFileList.of(all);
    for (
      const pattern of [
        "src/billing/**",
        "src/billing/*.ts",
        "src/billing",
        "src/billing*",
        "**/*.md",
        "./docs/*.md",
        "{src,docs}/**",
        "!src/**",
      ]
    ) {
      const test = picomatchMatcher.compile(pattern);
      const [check] = checkAnchors(list, [pattern], picomatchMatcher);
      expect(check!.matches, pattern).toBe(all.filter(test).length);
    }
    expect(list.under("src/billing")).toEqual(["src/billing", ...files(50, "src/billing")]);
    expect(anchorBase("./docs/*.md")).toBe("docs");
  });

  test("orphanedAnchors() lists the anchors that match no file", () => {
    const list = RepoFileList.of(["src/a.ts", "docs/x.md"]);
    expect(orphanedAnchors(list, ["src/**", "lib/**", "docs/*.md", "src/{"], picomatchMatcher)).toEqual(["lib/**", "src/{"]);
  });
});

describe("match order", () => {
  test("compareMatched() puts reviewed before proposed before draft, then drifted, then the most recent", () => {
    const ws = "01939a3e-0000-7000-8000-000000000000";
    const draft = topicFixture(ws, { status: "draft", updated_at: "2026-03-01T00:00:00.000Z" });
    const reviewed = topicFixture(ws, { status: "reviewed", updated_at: "2026-01-01T00:00:00.000Z" });
    const driftedReviewed = topicFixture(ws, {
      status: "reviewed",
      updated_at: "2025-01-01T00:00:00.000Z",
      drift: { commit: null, files: [], at: "2026-01-01T00:00:00.000Z" },
    });
    const proposed = topicFixture(ws, { status: "proposed" });
    expect([draft, proposed, reviewed, driftedReviewed].sort(compareMatched).map((t) => t.id)).toEqual([
      driftedReviewed.id,
      reviewed.id,
      proposed.id,
      draft.id,
    ]);
  });
});

describe("X-Hub-Signature-256", () => {
  const body = new TextEncoder().encode('{"zen":"hi"}');

  test("hubSignature() is sha256= and the hex HMAC-SHA256 of the body", async () => {
    // echo -n '{"zen":"hi"}' | openssl dgst -sha256 -hmac secret
    expect(await hubSignature("secret", body)).toBe("sha256=a3fb8cb2d37fc18eec1b036a46a9a8ebd8e210d829b0b02a4be4d03b1d259492");
  });

  test("verifyHubSignature() accepts the right signature only", async () => {
    const good = await hubSignature("secret", body);
    expect(await verifyHubSignature("secret", body, good)).toBe(true);
    expect(await verifyHubSignature("secret", body, good.toUpperCase().replace("SHA256", "sha256"))).toBe(true);
    expect(await verifyHubSignature("other", body, good)).toBe(false);
    expect(await verifyHubSignature("secret", new TextEncoder().encode('{"zen":"hi" }'), good)).toBe(false);
    expect(await verifyHubSignature("secret", body, null)).toBe(false);
    expect(await verifyHubSignature("secret", body, "sha1=abc")).toBe(false);
    expect(await verifyHubSignature("secret", body, good.slice(0, -1))).toBe(false);
  });

  test("constantTimeEqual() compares whole strings", () => {
    expect(constantTimeEqual("abc", "abc")).toBe(true);
    expect(constantTimeEqual("abc", "abd")).toBe(false);
    expect(constantTimeEqual("abc", "ab")).toBe(false);
  });
});
