import { AppError } from "../kernel/errors.ts";
import type { CriterionKind } from "./criterion-filter.ts";
import { FINISHED_RUN_STATES, type RadarRun, type RunResults, type RunState } from "./model.ts";
import type { RunPrices } from "./prices.ts";

/**
 * A run's rules, pure (docs/decisions/026-radar-runs.md): which action each state allows, what a
 * quote holds and what a run charges.
 *
 *   draft —price→ priced —price→ priced —start→ queued → running → completed | failed | cancelled
 */

export const RUN_ACTIONS = ["price", "start", "reconcile", "enrich"] as const;
export type RunAction = (typeof RUN_ACTIONS)[number];

const ALLOWED: Record<RunAction, readonly RunState[]> = {
  price: ["draft", "priced"],
  start: ["priced"],
  reconcile: ["queued", "running", "completed", "failed", "cancelled"],
  enrich: ["completed"],
};

/** 409 `CONFLICT` with `current_state` unless `action` is allowed in the run's state. */
export function assertRunAllows(run: Pick<RadarRun, "state">, action: RunAction): void {
  if (ALLOWED[action].includes(run.state)) return;
  throw new AppError("CONFLICT", `Cannot ${action} run: it is ${run.state}`, undefined, { current_state: run.state });
}

export const isFinished = (state: RunState): boolean => FINISHED_RUN_STATES.includes(state);

/** Credits per result of a kind. */
export const unitCredits = (prices: RunPrices, kind: CriterionKind): number =>
  kind === "company" ? prices.company_result : prices.person_result;

/** How many results a quote covers and the most it charges. */
export function quoteFigures(unit: number, maxResults: number, matches: number): { estimated_results: number; max_credits: number } {
  const estimated = Math.max(0, Math.min(maxResults, matches));
  return { estimated_results: estimated, max_credits: estimated * unit };
}

/**
 * What a monitor's run may cover: the search's cap, the matches, and what is left of the budget
 * (whole results only).
 */
export function monitorResults(maxResults: number, matches: number, unit: number, budgetLeft: number): number {
  const affordable = unit === 0 ? maxResults : Math.floor(Math.max(0, budgetLeft) / unit);
  return Math.max(0, Math.min(maxResults, matches, affordable));
}

/** What a run charges for its results: created and updated ones, never beyond its hold. */
export function chargeOf(results: Pick<RunResults, "created" | "updated">, unit: number, hold: number): number {
  return Math.min(hold, (results.created + results.updated) * unit);
}

/** The calendar month (UTC) holding `at`: a monitor's budget period. */
export function monthStart(at: Date): string {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1)).toISOString();
}
