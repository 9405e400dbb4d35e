import { describe, expect, test } from "bun:test";
import { anchorBase, anchorBases, baseCandidates } from "../../core/code-context/anchor-base.ts";

describe("anchorBase()", () => {
  test("anchorBase() is the literal directory before the first glob segment", () => {
    expect(anchorBase("src/billing/**/*.ts")).toBe("src/billing");
    expect(anchorBase("src/*.ts")).toBe("src");
    expect(anchorBase("**/*.md")).toBe("");
    expect(anchorBase("{a,b}/x.ts")).toBe("");
    expect(anchorBase("!src/x.ts")).toBe("");
    expect(anchorBase("docs/intro.md")).toBe("docs/intro.md");
  });
  test("anchorBases() is distinct and sorted", () => {
    expect(anchorBases(["b/*", "a/**", "b/x/*", "b/*.ts"])).toEqual(["a", "b", "b/x"]);
  });
  test("baseCandidates() lists the root, each ancestor and the path itself", () => {
    expect(baseCandidates("src/billing/invoice.ts")).toEqual(["", "src", "src/billing", "src/billing/invoice.ts"]);
    expect(baseCandidates("README.md")).toEqual(["", "README.md"]);
  });
});
