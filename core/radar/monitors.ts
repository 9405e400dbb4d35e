import type { RadarDeps } from "./ports.ts";
import type { Principal } from "../access/mod.ts";
import { emit } from "../events/mod.ts";
import { AppError, isAppError, notFound } from "../kernel/errors.ts";
import { uuidv7 } from "../kernel/ids.ts";
import type { Workspace } from "../workspaces/mod.ts";
import type { MonitorView } from "./dto.ts";
import { holdCredits } from "../credits/mod.ts";
import { radarRunJob } from "./jobs.ts";
import { INTERVAL_MS, type Quote, type RadarMonitor, type RadarRun } from "./model.ts";
import { inPeriod, scheduleMonitor } from "./monitor-schedule.ts";
import { parseCriterion } from "./criterion-block.ts";
import { DEFAULT_RUN_PRICES } from "./prices.ts";
import type { ProspectQuery } from "./prospect.ts";
import { executeRun } from "./run-execution.ts";
import { monitorResults, unitCredits } from "./run-rules.ts";
import { toMonitorView } from "./run-views.ts";
import { findRun } from "./runs.ts";
import { newRun } from "./searches.ts";
import { trace } from "./trace.ts";
import { assertCanActOnRadar } from "./policy.ts";

const MONITOR_QUOTE_TTL_MS = 15 * 60 * 1000;
const SWEEP_LIMIT = 100;

async function monitorOfRun(deps: RadarDeps, ws: Workspace, runId: string): Promise<RadarMonitor> {
  const run = await findRun(deps, ws, runId);
  const m = await deps.stores.radarMonitors.monitorOfSearch(ws.id, run.search_id);
  if (!m) throw notFound("Monitor");
  return m;
}

/** The monitor of the run's search (404 when it has none). */
export async function getRunMonitor(deps: RadarDeps, ws: Workspace, runId: string): Promise<MonitorView> {
  return toMonitorView(inPeriod(await monitorOfRun(deps, ws, runId), deps.clock.now()));
}

/** Changes a monitor by compare-and-set, re-reading on a concurrent change. */
async function changeMonitor(
  deps: RadarDeps,
  m: RadarMonitor,
  change: (m: RadarMonitor) => Partial<RadarMonitor> | null,
): Promise<RadarMonitor> {
  for (let cur = m, attempt = 0; attempt < 5; attempt++) {
    const patch = change(cur);
    if (patch === null) return cur;
    const now = deps.clock.now().toISOString();
    const next = { ...inPeriod(cur, deps.clock.now()), ...patch, version: cur.version + 1, updated_at: now };
    if ((await deps.stores.radarMonitors.updateMonitor(next)) === "ok") return next;
    const again = await deps.stores.radarMonitors.getMonitor(m.workspace_id, m.id);
    if (!again) throw notFound("Monitor");
    cur = again;
  }
  throw new AppError("CONFLICT", "Cannot change monitor: it keeps changing; retry");
}

/** Pauses the monitor (idempotent): no run starts until it is resumed. */
export async function pauseMonitor(deps: RadarDeps, p: Principal, ws: Workspace, runId: string): Promise<MonitorView> {
  assertCanActOnRadar(p, "pauseMonitor");
  const m = await monitorOfRun(deps, ws, runId);
  const next = await changeMonitor(
    deps,
    m,
    (cur) =>
      cur.state === "paused" && cur.paused_reason === "manual" ? null : { state: "paused", paused_reason: "manual", next_run_at: null },
  );
  if (next !== m) await emit(deps, ws.id, "radar.monitor_paused", p, { monitor_id: m.id, reason: "manual" });
  return toMonitorView(next);
}

/**
 * Resumes the monitor (idempotent). Once the search has a run behind it, the next run is due at
 * once; before, it waits for the first run to complete.
 */
export async function resumeMonitor(deps: RadarDeps, p: Principal, ws: Workspace, runId: string): Promise<MonitorView> {
  assertCanActOnRadar(p, "resumeMonitor");
  const m = await monitorOfRun(deps, ws, runId);
  const now = deps.clock.now().toISOString();
  const next = await changeMonitor(
    deps,
    m,
    (cur) => cur.state === "active" ? null : { state: "active", paused_reason: null, next_run_at: cur.last_run_id ? now : null },
  );
  if (next !== m) {
    await emit(deps, ws.id, "radar.monitor_resumed", p, { monitor_id: m.id });
    await scheduleMonitor(deps, next);
  }
  return toMonitorView(next);
}

/**
 * The job of `radar.monitor`: when the monitor is due, prices a new run of its search within what
 * is left of the period's budget and starts it. Short of credits, the monitor pauses itself
 * (`insufficient_credits`); with the budget spent, it waits for the next interval.
 */
export async function executeMonitor(deps: RadarDeps, workspaceId: string, monitorId: string): Promise<void> {
  const stored = await deps.stores.radarMonitors.getMonitor(workspaceId, monitorId);
  if (!stored || stored.state !== "active" || stored.next_run_at === null) return;
  const now = deps.clock.now();
  if (Date.parse(stored.next_run_at) > now.getTime()) return void (await scheduleMonitor(deps, stored));
  const m = inPeriod(stored, now);
  const search = await deps.stores.radarRuns.getSearch(workspaceId, m.search_id);
  if (!search) return;
  // Its previous run still going: it sets the next time when it ends.
  const last = m.last_run_id ? await deps.stores.radarRuns.getRun(workspaceId, m.last_run_id) : null;
  if (last && ["queued", "running"].includes(last.state)) return;

  const topic = (await deps.stores.topics.resolveMany(workspaceId, [search.criterion_slug])).get(search.criterion_slug)?.topic;
  const parsed = topic ? parseCriterion(topic.body) : null;
  const later = new Date(now.getTime() + intervalMs(m)).toISOString();
  if (!topic || !parsed?.ok || !deps.prospects) {
    await changeMonitor(deps, m, () => ({ next_run_at: later }));
    return;
  }
  const unit = unitCredits(deps.radarPrices ?? DEFAULT_RUN_PRICES, search.kind);
  const matches = await deps.prospects.count({ kind: parsed.block.kind, filter: parsed.block.filter } as ProspectQuery);
  const results = monitorResults(search.max_results, matches, unit, m.budget_credits - m.spent_credits);
  if (results === 0) {
    await changeMonitor(deps, m, () => ({ next_run_at: later }));
    return;
  }
  const at = now.toISOString();
  const run: RadarRun = newRun(search, at, now.getTime(), search.created_by, m.id);
  const quote: Quote = {
    id: uuidv7(now.getTime()),
    unit_credits: unit,
    max_results: search.max_results,
    estimated_results: results,
    max_credits: results * unit,
    criterion_version: topic.version,
    filter: parsed.block.filter,
    created_at: at,
    expires_at: new Date(now.getTime() + MONITOR_QUOTE_TTL_MS).toISOString(),
  };
  // Claim this due time first, so a duplicate job does not start a second run.
  const claimed = await deps.stores.radarMonitors.updateMonitor({
    ...m,
    next_run_at: null,
    last_run_id: run.id,
    version: stored.version + 1,
    updated_at: at,
  });
  if (claimed !== "ok") return;
  const monitor = { ...m, next_run_at: null, last_run_id: run.id, version: stored.version + 1, updated_at: at };

  let holdId: string | null = null;
  if (quote.max_credits > 0) {
    try {
      holdId = await holdCredits(deps, workspaceId, quote.max_credits, {
        run_id: run.id,
        reason: "radar monitor run",
        idempotency_key: `radar.run.hold:${run.id}:${quote.id}`,
      });
    } catch (e) {
      if (!(isAppError(e) && e.code === "INSUFFICIENT_CREDITS")) throw e;
      await changeMonitor(
        deps,
        monitor,
        () => ({ state: "paused", paused_reason: "insufficient_credits", next_run_at: null, last_run_id: m.last_run_id }),
      );
      await emit(deps, workspaceId, "radar.monitor_paused", null, { monitor_id: m.id, reason: "insufficient_credits" });
      return;
    }
  }
  const started: RadarRun = { ...run, state: "queued", quote, hold_id: holdId, hold_credits: quote.max_credits, started_at: at };
  await deps.stores.radarRuns.insertRun(started);
  await trace(deps, started, "run.priced", { quote: { ...quote, filter: undefined }, matches, monitor_id: m.id });
  await trace(deps, started, "run.started", { hold_credits: quote.max_credits, hold_id: holdId });
  await emit(deps, workspaceId, "radar.run_started", null, { run_id: run.id, monitor_id: m.id, hold_credits: quote.max_credits });
  if (deps.jobs) await deps.jobs.enqueue(radarRunJob, workspaceId, { run_id: run.id });
  else await executeRun(deps, workspaceId, run.id);
}

const intervalMs = (m: RadarMonitor) => INTERVAL_MS[m.interval];

/**
 * What a consumer does now and then (and at start): re-queues runs whose worker died and
 * monitors that are due, in case their jobs were lost (an in-process queue across a restart).
 */
export async function radarSweep(deps: RadarDeps): Promise<{ runs: number; monitors: number }> {
  if (!deps.jobs) return { runs: 0, monitors: 0 };
  const now = deps.clock.now().toISOString();
  const runs = await deps.stores.radarRuns.staleRuns(now, SWEEP_LIMIT);
  for (const r of runs) await deps.jobs.enqueue(radarRunJob, r.workspace_id, { run_id: r.id });
  const monitors = await deps.stores.radarMonitors.dueMonitors(now, SWEEP_LIMIT);
  for (const m of monitors) await scheduleMonitor(deps, m);
  return { runs: runs.length, monitors: monitors.length };
}
