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
    lines.push(`- ${met ? "MET" : "MISSED"}: ${goal.text}: ${row.name}: ${parts.join(", ")}`);
  }
  return lines.length === 0 ? null : `Targets (printed, not asserted):\n${lines.join("\n")}`;
}
