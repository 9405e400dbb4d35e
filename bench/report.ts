/** Formats benchmark results as a Markdown table. */
import type { WrkResult } from "./wrk.ts";

export interface Row {
  name: string;
  baseline: boolean;
  result?: WrkResult;
  /** Why the scenario produced no valid measurement. */
  failure?: string;
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
