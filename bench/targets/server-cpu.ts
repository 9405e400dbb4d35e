/**
 * CPU time of the benchmark's own API servers (`server/main.ts` processes it started), from /proc:
 * with `BENCH_PG_STATEMENTS=1`, each measurement also prints the server's CPU per request (user +
 * system), beside PostgreSQL's. Idle servers of other scenarios add (almost) nothing.
 */
import { readdirSync, readFileSync } from "node:fs";

const TICK_MS = 1000 / 100; // USER_HZ

/** pid → CPU ticks of every `server/main.ts` process descending from this one. */
function serverTicks(): Map<number, number> {
  const parents = new Map<number, number>();
  const stats = new Map<number, string[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const fields = readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1]!.split(" ");
      parents.set(Number(entry), Number(fields[1]));
      stats.set(Number(entry), fields);
    } catch { /* gone */ }
  }
  const mine = (pid: number): boolean => {
    for (let p = parents.get(pid); p !== undefined && p > 1; p = parents.get(p)) if (p === process.pid) return true;
    return false;
  };
  const ticks = new Map<number, number>();
  for (const [pid, fields] of stats) {
    if (!mine(pid)) continue;
    let cmd = "";
    try {
      cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8");
    } catch { /* gone */ }
    if (cmd.includes("server/main.ts")) ticks.set(pid, Number(fields[11]) + Number(fields[12]));
  }
  return ticks;
}

/** Starts counting; `report(requests)` gives the line to print. */
export function serverCpuProbe(): { report(requests: number): string } | null {
  if (process.env.BENCH_PG_STATEMENTS !== "1") return null;
  let before: Map<number, number>;
  try {
    before = serverTicks();
  } catch {
    return null; // no /proc
  }
  return {
    report(requests: number): string {
      let ticks = 0;
      for (const [pid, t] of serverTicks()) ticks += t - (before.get(pid) ?? 0);
      return `  server CPU: ${((ticks * TICK_MS) / requests).toFixed(3)} ms per request (user + system, the API server processes)`;
    },
  };
}
