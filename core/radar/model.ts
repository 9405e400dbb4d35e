import type { CriterionFilter, CriterionKind } from "./criterion-filter.ts";

/**
 * What radar stores: searches, their runs (with each run's trace and results) and monitors
 * (docs/decisions/026-radar-runs.md). Plain records; the views the API answers
 * are in dto.ts, the rules in run-rules.ts.
 */

/** A search: a criterion and the collection its results go to. Runs and a monitor hang off it. */
export interface RadarSearch {
  id: string;
  workspace_id: string;
  name: string;
  criterion_slug: string;
  kind: CriterionKind;
  collection_id: string;
  max_results: number;
  created_by: string | null;
  created_at: string;
}

export const RUN_STATES = ["draft", "priced", "queued", "running", "completed", "failed", "cancelled"] as const;
export type RunState = (typeof RUN_STATES)[number];
export const FINISHED_RUN_STATES: readonly RunState[] = ["completed", "failed", "cancelled"];

/** A price agreed before a run starts: the most it may charge. */
export interface Quote {
  id: string;
  unit_credits: number;
  max_results: number;
  /** min(max_results, matches) */
  estimated_results: number;
  /** estimated_results × unit_credits: what `start` holds */
  max_credits: number;
  criterion_version: number;
  created_at: string;
  expires_at: string;
  /** The criterion's filter as priced: what the run searches (kept inside, not shown). */
  filter: CriterionFilter;
}

export interface RunResults {
  matched: number;
  created: number;
  updated: number;
  unchanged: number;
}

export interface RunError {
  code: string;
  message: string;
}

/** One run of a search, as stored; `version` guards every change (compare-and-set). */
export interface RadarRun {
  id: string;
  workspace_id: string;
  search_id: string;
  collection_id: string;
  criterion_slug: string;
  kind: CriterionKind;
  /** The monitor that started the run, null for a run started by hand. */
  monitor_id: string | null;
  state: RunState;
  quote: Quote | null;
  results: RunResults;
  /** The ledger hold taken at start (its entry id), null before. */
  hold_id: string | null;
  hold_credits: number;
  charged_credits: number;
  released_credits: number;
  error: RunError | null;
  /** The directory's cursor of the next page to read; null before the first page. */
  cursor: string | null;
  /** How many prospects the run has read so far (the results it may still write: quote − read). */
  read: number;
  /** Until when the worker holding the run owns it; another may take it over after. */
  lease_until: string | null;
  /** Which take-over holds the run: bumped by each claim, so a stale worker's writes fail. */
  attempt: number;
  /** Who opened the search or started the run: records it writes name them. */
  actor_id: string | null;
  version: number;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  finished_at: string | null;
}

/** One step of a run's trace: append-only, numbered 1, 2, 3 … per run. */
export interface TraceStep {
  seq: number;
  type: string;
  at: string;
  data: Record<string, unknown>;
}

export const RESULT_OUTCOMES = ["created", "updated", "unchanged"] as const;
export type ResultOutcome = (typeof RESULT_OUTCOMES)[number];

/**
 * What a run did with one prospect, claimed under (run, provider id) before the record is
 * written: a worker that takes over a run finds the claim and re-applies the same write, so
 * results, and what they are charged, count once.
 */
export interface RunResult {
  workspace_id: string;
  run_id: string;
  provider_id: string;
  /** Order of reading within the run (1, 2, 3 …). */
  position: number;
  entity_id: string;
  record_id: string;
  outcome: ResultOutcome;
  /** The record's radar fields as written (re-applied by a take-over or a reconcile). */
  fields: Record<string, unknown>;
  at: string;
}

export const MONITOR_INTERVALS = ["hourly", "daily", "weekly"] as const;
export type MonitorInterval = (typeof MONITOR_INTERVALS)[number];
export const INTERVAL_MS: Record<MonitorInterval, number> = { hourly: 3_600_000, daily: 86_400_000, weekly: 604_800_000 };

export const MONITOR_STATES = ["active", "paused"] as const;
export type MonitorState = (typeof MONITOR_STATES)[number];
export const PAUSE_REASONS = ["manual", "insufficient_credits"] as const;
export type PauseReason = (typeof PAUSE_REASONS)[number];

/** Re-runs a search every interval, within a budget of credits per period. */
export interface RadarMonitor {
  id: string;
  workspace_id: string;
  search_id: string;
  /** The run the monitor was opened with; `GET /runs/{runId}/monitor` of any of its runs finds it. */
  first_run_id: string;
  interval: MonitorInterval;
  state: MonitorState;
  paused_reason: PauseReason | null;
  budget_credits: number;
  /** Charged by the monitor's runs in the current period. */
  spent_credits: number;
  /** Start of the current budget period. */
  period_start: string;
  next_run_at: string | null;
  /** The run the monitor last started (its next one waits for it to finish). */
  last_run_id: string | null;
  version: number;
  created_at: string;
  updated_at: string;
}
