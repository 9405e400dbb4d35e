/** Formats benchmark results as a Markdown table. */
import type { Goal } from "./scenario.ts";
import type { WrkResult } from "./wrk.ts";

export interface Row {
  name: string;
  baseline: boolean;
  result?: WrkResult;
  /** Why the scenario produced no valid measurement. */
  failure?: string;
  goal?: Goal;
}

export function markdownTable(rows: Row[]): string {
  const baseline = rows.find((row) => row.baseline && row.result)?.result;
  const lines = [
    "| target | req/s | p50 ms | p99 ms | ratio vs bare Bun.serve |",
    "|---|---:|---:|---:|---:|",
  ];
  for (const row of rows) {
    if (!row.result || row.failure) {
      lines.push(`| ${row.name} | FAILED | – | – | – |`);
      continue;
    }
    const { requestsPerSecond, p50Ms, p99Ms } = row.result;
    const ratio = baseline ? `${(requestsPerSecond / baseline.requestsPerSecond).toFixed(2)}×` : "–";
    lines.push(
      `| ${row.name} | ${Math.round(requestsPerSecond).toLocaleString("en-US")} | ${p50Ms.toFixed(2)} | ${p99Ms.toFixed(2)} | ${ratio} |`,
    );
  }
  return lines.join("\n");
}

/** One line per scenario with a goal: the target, the measurement, and whether it was met. */
export function goalsReport(rows: Row[]): string | null {
  const baseline = rows.find((row) => row.baseline && row.result && !row.failure)?.result;
  const lines: string[] = [];
  for (const row of rows) {
    const goal = row.goal;
    if (!goal) continue;
    if (!row.result || row.failure) {
      lines.push(`- ${goal.text}: ${row.name}: no measurement (FAILED)`);
      continue;
    }
    const parts: string[] = [];
    let met = true;
    if (goal.maxP50Ms !== undefined) {
      const ok = row.result.p50Ms <= goal.maxP50Ms;
      met &&= ok;
      parts.push(`p50 ${row.result.p50Ms.toFixed(2)} ms ${ok ? "≤" : ">"} ${goal.maxP50Ms} ms`);
    }
    if (goal.maxP99Ms !== undefined) {
      const ok = row.result.p99Ms <= goal.maxP99Ms;
      met &&= ok;
      parts.push(`p99 ${row.result.p99Ms.toFixed(2)} ms ${ok ? "≤" : ">"} ${goal.maxP99Ms} ms`);
    }
    if (goal.minRequestsPerSecond !== undefined) {
      const rps = row.result.requestsPerSecond;
      const ok = rps >= goal.minRequestsPerSecond;
      met &&= ok;
      parts.push(`${Math.round(rps).toLocaleString("en-US")} req/s ${ok ? "≥" : "<"} ${goal.minRequestsPerSecond.toLocaleString("en-US")}`);
    }
    if (goal.minRatio !== undefined) {
      if (!baseline) {
        met = false;
        parts.push("no baseline measured, no ratio");
      } else {
        const ratio = row.result.requestsPerSecond / baseline.requestsPerSecond;
        const ok = ratio >= goal.minRatio;
        met &&= ok;
        parts.push(`${ratio.toFixed(2)}× the baseline ${ok ? "≥" : "<"} ${goal.minRatio}×`);
      }
    }
    lines.push(`- ${met ? "MET" : "MISSED"}: ${goal.text}: ${row.name}: ${parts.join(", ")}`);
  }
  return lines.length === 0 ? null : `Targets (printed, not asserted):\n${lines.join("\n")}`;
}

/**
 * A ratio between two scenarios' measurements, printed after the table: `numerator / denominator`
 * of `metric`, with an optional target on the ratio (printed MET or MISSED, never asserted).
 */
export interface Comparison {
  /** What is compared, e.g. "ours (postgres, 100k records): deep page / first page, p50". */
  text: string;
  /** Scenario names (`Scenario.name`). */
  numerator: string;
  denominator: string;
  metric: "p50" | "requestsPerSecond";
  /** Target: the ratio at most this. */
  max?: number;
  /** Target: the ratio at least this. */
  min?: number;
}

/**
 * One line per comparison whose two scenarios ran, e.g.
 * `- ours (postgres): deep/first p50 = 1.12× (target ≤ 1.5×) MET [2.10 ms / 1.87 ms]`;
 * null when none of them ran.
 */
export function comparisonsReport(rows: Row[], comparisons: readonly Comparison[]): string | null {
  const byName = new Map(rows.map((row) => [row.name, row]));
  const lines: string[] = [];
  for (const comparison of comparisons) {
    const top = byName.get(comparison.numerator);
    const bottom = byName.get(comparison.denominator);
    if (!top || !bottom) continue;
    if (!top.result || top.failure || !bottom.result || bottom.failure) {
      lines.push(`- ${comparison.text}: no measurement (FAILED)`);
      continue;
    }
    const value = (result: WrkResult) => (comparison.metric === "p50" ? result.p50Ms : result.requestsPerSecond);
    const format = (result: WrkResult) =>
      comparison.metric === "p50"
        ? `${result.p50Ms.toFixed(2)} ms`
        : `${Math.round(result.requestsPerSecond).toLocaleString("en-US")} req/s`;
    const ratio = value(top.result) / value(bottom.result);
    const targets: string[] = [];
    let met = true;
    if (comparison.max !== undefined) {
      targets.push(`≤ ${comparison.max}×`);
      met &&= ratio <= comparison.max;
    }
    if (comparison.min !== undefined) {
      targets.push(`≥ ${comparison.min}×`);
      met &&= ratio >= comparison.min;
    }
    const verdict = targets.length === 0 ? "" : ` (target ${targets.join(" and ")}) ${met ? "MET" : "MISSED"}`;
    lines.push(`- ${comparison.text} = ${ratio.toFixed(2)}×${verdict} [${format(top.result)} / ${format(bottom.result)}]`);
  }
  return lines.length === 0 ? null : `Comparisons (printed, not asserted):\n${lines.join("\n")}`;
}
