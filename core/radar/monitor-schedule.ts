import type { RadarDeps } from "./ports.ts";
import { radarMonitorJob } from "./jobs.ts";
import { INTERVAL_MS, type RadarMonitor, type RadarRun } from "./model.ts";
import { monthStart } from "./run-rules.ts";

/**
 * When a monitor runs next (docs/decisions/026-radar-runs.md): an interval after its search's last
 * run finished. Its budget is per calendar month (UTC): a new month starts with nothing spent.
 */

/** The monitor in the period holding `now`: a new month resets what was spent. */
export function inPeriod(m: RadarMonitor, now: Date): RadarMonitor {
  const start = monthStart(now);
  return start === m.period_start ? m : { ...m, period_start: start, spent_credits: 0 };
}

/** Queues the monitor's job for `next_run_at` (a sweep also finds due monitors, should the job be lost). */
export async function scheduleMonitor(deps: RadarDeps, m: RadarMonitor): Promise<void> {
  if (!deps.jobs || m.state !== "active" || m.next_run_at === null) return;
  const delayMs = Math.max(0, Date.parse(m.next_run_at) - deps.clock.now().getTime());
  await deps.jobs.enqueue(radarMonitorJob, m.workspace_id, { monitor_id: m.id }, { delayMs });
}

/**
 * After a run of a monitored search finishes: a monitor's own run adds its charge to what the
 * monitor spent; any completed run sets the next one an interval later.
 */
export async function afterRunFinished(deps: RadarDeps, run: RadarRun): Promise<void> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const cur = await deps.stores.radarMonitors.monitorOfSearch(run.workspace_id, run.search_id);
    if (!cur) return;
    const now = deps.clock.now();
    const m = inPeriod(cur, now);
    const own = run.monitor_id === m.id;
    const spent = own ? m.spent_credits + run.charged_credits : m.spent_credits;
    // The monitor starts once a run of the search completed; its own runs keep it going whatever their end.
    const schedules = m.state === "active" && (own || run.state === "completed");
    const next: RadarMonitor = {
      ...m,
      spent_credits: spent,
      next_run_at: schedules ? new Date(now.getTime() + INTERVAL_MS[m.interval]).toISOString() : m.next_run_at,
      last_run_id: run.id,
      version: m.version + 1,
      updated_at: now.toISOString(),
    };
    if ((await deps.stores.radarMonitors.updateMonitor(next)) !== "ok") continue;
    await scheduleMonitor(deps, next);
    return;
  }
}
