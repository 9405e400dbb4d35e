import { describe, expect, test } from "bun:test";
import { importCircles, importGraph } from "../support/import-circles.ts";

/**
 * Core's import circles stay small (docs/decisions/066-a-smaller-hub.md): modules reach each
 * other through the kernel and the mod.ts they really use, not through a hub. 19 files is the
 * largest circle left (access and workspaces); a change that joins more files into one circle
 * fails here.
 */
const LARGEST_CIRCLE = 19;

describe("core's import circles", () => {
  const graph = importGraph(["core"]);
  const circles = importCircles(graph);

  test("the scanner sees core's files and their imports", () => {
    expect(graph.size).toBeGreaterThan(200);
    expect(graph.get("core/workspaces/workspace.ts")).toContain("core/access/mod.ts");
  });

  test(`the largest circle has at most ${LARGEST_CIRCLE} files`, () => {
    expect(circles[0]?.length ?? 0).toBeLessThanOrEqual(LARGEST_CIRCLE);
  });

  test("the composition types (core/deps.ts, core/stores.ts) and the kernel are in no circle", () => {
    const inCircles = circles.flat();
    expect(inCircles.filter((f) => f === "core/deps.ts" || f === "core/stores.ts" || f.startsWith("core/kernel/"))).toEqual([]);
  });
});
