import type { RadarDeps } from "./ports.ts";
import type { Principal } from "../access/mod.ts";
import type { CoreDeps } from "../kernel/deps.ts";
import { emit } from "../events/mod.ts";
import { AppError, isAppError, isUuid, notFound } from "../kernel/mod.ts";
import { uuidv7 } from "../kernel/ids.ts";
import type { Workspace } from "../workspaces/mod.ts";
import { getCriterion } from "./criterion-topics.ts";
import type { PriceRunDto, RunView, TraceView } from "./dto.ts";
import { holdCredits, settleHold } from "../credits/mod.ts";
import { radarRunJob } from "./jobs.ts";
import type { Quote, RadarRun } from "./model.ts";
import type { RadarStores } from "./ports.ts";
import { DEFAULT_RUN_PRICES } from "./prices.ts";
import { executeRun, finishRun, repairRun } from "./run-execution.ts";
import { assertRunAllows, isFinished, quoteFigures, unitCredits } from "./run-rules.ts";
import { toRunView } from "./run-views.ts";
import { trace } from "./trace.ts";
import { assertCanActOnRadar } from "./policy.ts";

export const DEFAULT_QUOTE_TTL_SECONDS = 900;
const TRACE_LIMIT = 1_000;

const runNotFound = () => notFound("Run");

/** A run of this workspace, or a 404 (also for an id of another workspace, or not a UUID). */
export async function findRun(deps: CoreDeps<RadarStores>, ws: Workspace, runId: string): Promise<RadarRun> {
  if (!isUuid(runId)) throw runNotFound();
  const run = await deps.stores.radarRuns.getRun(ws.id, runId);
  if (!run) throw runNotFound();
  return run;
}

export async function getRun(deps: RadarDeps, ws: Workspace, runId: string): Promise<RunView> {
  return toRunView(await findRun(deps, ws, runId));
}

export async function getTrace(deps: RadarDeps, ws: Workspace, runId: string): Promise<TraceView> {
  await findRun(deps, ws, runId);
  return { steps: await deps.stores.radarRuns.steps(ws.id, runId, 0, TRACE_LIMIT) };
}

/** Writes the run's next state; a concurrent change is a 409 naming the state it is in now. */
async function saveRun(deps: RadarDeps, next: RadarRun): Promise<RadarRun> {
  const result = await deps.stores.radarRuns.updateRun(next);
  if (result === "ok") return next;
  const now = await deps.stores.radarRuns.getRun(next.workspace_id, next.id);
  if (!now) throw runNotFound();
  throw new AppError("CONFLICT", `Cannot change run: it changed meanwhile (now ${now.state})`, [], { current_state: now.state });
}

/** The criterion of a run now, or a 409 when its topic no longer holds one. */
async function criterionNow(deps: RadarDeps, ws: Workspace, run: RadarRun) {
  try {
    return await getCriterion(deps, ws, run.criterion_slug);
  } catch (e) {
    if (isAppError(e) && e.code === "NOT_FOUND") {
      throw new AppError("CONFLICT", `Cannot price run: its criterion ${run.criterion_slug} no longer exists`, [], {
        current_state: run.state,
      });
    }
    throw e;
  }
}

/**
 * Prices a run: how many results the directory has now, capped by `max_results`, at the unit
 * price of its kind. Holds nothing; pricing again replaces the quote.
 */
export async function priceRun(deps: RadarDeps, p: Principal, ws: Workspace, runId: string, dto: PriceRunDto): Promise<RunView> {
  assertCanActOnRadar(p, "priceRun");
  const run = await findRun(deps, ws, runId);
  assertRunAllows(run, "price");
  const search = await deps.stores.radarRuns.getSearch(ws.id, run.search_id);
  if (!search) throw runNotFound();
  const criterion = await criterionNow(deps, ws, run);
  const directory = deps.prospects;
  const matches = directory ? await directory.count({ kind: criterion.kind, filter: criterion.filter } as never) : 0;
  const unit = unitCredits(deps.radarPrices ?? DEFAULT_RUN_PRICES, run.kind);
  const maxResults = dto.max_results ?? search.max_results;
  const now = deps.clock.now();
  const quote: Quote = {
    id: uuidv7(now.getTime()),
    unit_credits: unit,
    max_results: maxResults,
    ...quoteFigures(unit, maxResults, matches),
    criterion_version: criterion.version,
    filter: criterion.filter,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + (dto.ttl_seconds ?? DEFAULT_QUOTE_TTL_SECONDS) * 1000).toISOString(),
  };
  const next = await saveRun(deps, { ...run, state: "priced", quote, version: run.version + 1, updated_at: quote.created_at });
  await trace(deps, next, "run.priced", { quote: toRunView(next).quote, matches });
  return toRunView(next);
}

/**
 * Starts a priced run: holds its quote's `max_credits` and queues it. Refused with nothing held:
 * 402 when short, 409 `QUOTE_EXPIRED`, 409 `QUOTE_STALE` when the criterion changed since.
 */
export async function startRun(deps: RadarDeps, p: Principal, ws: Workspace, runId: string): Promise<RunView> {
  assertCanActOnRadar(p, "startRun");
  const run = await findRun(deps, ws, runId);
  assertRunAllows(run, "start");
  const quote = run.quote!;
  const now = deps.clock.now();
  if (Date.parse(quote.expires_at) <= now.getTime()) {
    throw new AppError("QUOTE_EXPIRED", "Cannot start run: its quote expired; price it again", [], { expires_at: quote.expires_at });
  }
  const version = await getCriterion(deps, ws, run.criterion_slug).then((c) => c.version, () => null);
  if (version !== quote.criterion_version) {
    throw new AppError("QUOTE_STALE", "Cannot start run: its criterion changed since it was priced; price it again", [], {
      criterion_version: version,
      quoted_version: quote.criterion_version,
    });
  }
  // One hold per quote, whatever retries and races: a second start finds the same entry.
  const holdId = quote.max_credits > 0
    ? await holdCredits(deps, ws.id, quote.max_credits, {
      run_id: run.id,
      reason: "radar run",
      idempotency_key: `radar.run.hold:${run.id}:${quote.id}`,
    })
    : null;
  const at = now.toISOString();
  let next: RadarRun;
  try {
    next = await saveRun(deps, {
      ...run,
      state: "queued",
      hold_id: holdId,
      hold_credits: quote.max_credits,
      started_at: at,
      updated_at: at,
      version: run.version + 1,
    });
  } catch (e) {
    // The run changed meanwhile (re-priced, or started by a concurrent request): a hold it does
    // not reference is released at once, so nothing stays held for nothing.
    const now = await deps.stores.radarRuns.getRun(ws.id, run.id);
    if (holdId && now?.hold_id !== holdId) await settleHold(deps, ws.id, holdId, 0, { run_id: run.id, reason: "radar run not started" });
    throw e;
  }
  await trace(deps, next, "run.started", { hold_credits: quote.max_credits, hold_id: holdId });
  await emit(deps, ws.id, "radar.run_started", p, { run_id: run.id, hold_credits: quote.max_credits });
  await dispatch(deps, next);
  return toRunView((await deps.stores.radarRuns.getRun(ws.id, run.id)) ?? next);
}

/** Hands a queued run to the job queue; without one (an embedding app, tests), runs it here. */
export async function dispatch(deps: RadarDeps, run: RadarRun): Promise<void> {
  if (deps.jobs) await deps.jobs.enqueue(radarRunJob, run.workspace_id, { run_id: run.id });
  else await executeRun(deps, run.workspace_id, run.id);
}

/**
 * Resumes a queued or running run whose lease ended (a worker died), or, on a finished run,
 * checks and repairs what it left: its hold resolved once, its results' records written. Moves
 * nothing beyond the hold. A run another worker still holds is left to it (409).
 */
export async function reconcileRun(deps: RadarDeps, p: Principal, ws: Workspace, runId: string): Promise<RunView> {
  assertCanActOnRadar(p, "reconcileRun");
  const run = await findRun(deps, ws, runId);
  assertRunAllows(run, "reconcile");
  const now = deps.clock.now();
  if (isFinished(run.state)) {
    await repairRun(deps, run);
    await finishRun(deps, (await deps.stores.radarRuns.getRun(ws.id, run.id)) ?? run, null);
  } else {
    if (run.lease_until !== null && Date.parse(run.lease_until) > now.getTime()) {
      throw new AppError("CONFLICT", "Cannot reconcile run: a worker holds it", [], {
        current_state: run.state,
        lease_until: run.lease_until,
      });
    }
    await trace(deps, run, "run.reconciled", { state: run.state });
    await dispatch(deps, run);
  }
  return toRunView((await deps.stores.radarRuns.getRun(ws.id, run.id)) ?? run);
}
