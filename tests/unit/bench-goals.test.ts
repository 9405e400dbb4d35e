import { describe, expect, test } from "bun:test";
import { goalsReport, type Row } from "../../bench/report.ts";
import type { WrkResult } from "../../bench/wrk.ts";

function measured(requestsPerSecond: number, p99Ms = 1): WrkResult {
  return {
    requests: requestsPerSecond * 5,
    durationSeconds: 5,
    requestsPerSecond,
    p50Ms: 0.5,
    p90Ms: 0.8,
    p99Ms,
    maxMs: p99Ms,
    errors: { connect: 0, read: 0, write: 0, status: 0, timeout: 0 },
    totalErrors: 0,
  };
}

const baseline: Row = { name: "bare", baseline: true, result: measured(40_000) };
const ratioGoal = { text: "authenticated GET ≥ 0.45× the bare Bun.serve", minRatio: 0.45 };

describe("benchmark goals", () => {
  test("a ratio goal compares the scenario's requests/s with the baseline's of the same run", () => {
    const report = goalsReport([baseline, { name: "GET ws", baseline: false, result: measured(20_000), goal: ratioGoal }]);
    expect(report).toContain("- MET: authenticated GET ≥ 0.45× the bare Bun.serve: GET ws: 0.50× the baseline ≥ 0.45×");
  });

  test("below the ratio is MISSED; without a baseline no ratio is claimed", () => {
    const below = goalsReport([baseline, { name: "GET ws", baseline: false, result: measured(12_000), goal: ratioGoal }]);
    expect(below).toContain("- MISSED: authenticated GET ≥ 0.45× the bare Bun.serve: GET ws: 0.30× the baseline < 0.45×");
    const alone = goalsReport([{ name: "GET ws", baseline: false, result: measured(20_000), goal: ratioGoal }]);
    expect(alone).toContain("- MISSED: authenticated GET ≥ 0.45× the bare Bun.serve: GET ws: no baseline measured, no ratio");
  });

  test("latency and throughput goals are printed as before", () => {
    const report = goalsReport([
      baseline,
      { name: "search @8", baseline: false, result: measured(900, 21.5), goal: { text: "p99 ≤ 25 ms", maxP99Ms: 25 } },
      { name: "list @32", baseline: false, result: measured(2_500), goal: { text: "≥ 3,000 req/s", minRequestsPerSecond: 3_000 } },
    ]);
    expect(report).toContain("- MET: p99 ≤ 25 ms: search @8: p99 21.50 ms ≤ 25 ms");
    expect(report).toContain("- MISSED: ≥ 3,000 req/s: list @32: 2,500 req/s < 3,000");
  });
});
