import type { CapacityGate } from "../kernel/capacity.ts";
import type { CollectionStores } from "../collections/mod.ts";
import type { CreditStores } from "../credits/mod.ts";
import type { TopicStores } from "../topics/mod.ts";
import type { WorkspaceStores } from "../workspaces/mod.ts";
import type { CoreDeps } from "../kernel/deps.ts";
import type { WebhookStores } from "../webhooks/mod.ts";
import type { RadarMonitor, RadarRun, RadarSearch, ResultOutcome, RunResult, TraceStep } from "./model.ts";
import type { ContactDetails, Prospect, ProspectKind, ProspectQuery } from "./prospect.ts";
import type { RunPrices } from "./prices.ts";

/** One page of a search: `cursor` fetches the next, null on the last page. */
export interface ProspectPage {
  items: Prospect[];
  /** How many prospects match the whole query. */
  total: number;
  cursor: string | null;
}

/** An enriched profile, or null for a miss (a miss is free). */
export interface Enrichment {
  id: string;
  profile: Record<string, unknown> | null;
}

/**
 * Where radar finds companies and people (docs/decisions/022-prospect-directory.md). Two adapters:
 * a generated sample with no network (adapters/radar-sample/, the default) and People Data Labs
 * (adapters/pdl/). Failures throw a `ProspectDirectoryError`; a miss is not a failure.
 */
export interface ProspectDirectory {
  /** The provider's name: results' `<provider>:<id>` keys and `radar:<provider>` sources use it. */
  readonly name: string;
  /** How many prospects match. */
  count(query: ProspectQuery): Promise<number>;
  /**
   * A page of at most `size` (1–100) matches, in the directory's stable order; pass the previous
   * page's `cursor` for the next. A cursor belongs to its query.
   */
  search(query: ProspectQuery, page: { size: number; cursor?: string | null }): Promise<ProspectPage>;
  /** Profiles of up to 100 prospects of one kind by id, one answer per id in order. */
  enrich(kind: ProspectKind, ids: string[]): Promise<Enrichment[]>;
  /** A person's e-mail, phone and LinkedIn URL; null when the directory does not know the person. */
  contacts(personId: string): Promise<ContactDetails | null>;
}

/** Why a directory failed. */
export const PROSPECT_DIRECTORY_FAILURES = ["unauthorized", "rate_limited", "bad_request", "unsupported_filter", "unavailable"] as const;
export type ProspectDirectoryFailure = (typeof PROSPECT_DIRECTORY_FAILURES)[number];

/** The typed error of a `ProspectDirectory`; `message` is safe to show (no credentials). */
export class ProspectDirectoryError extends Error {
  readonly reason: ProspectDirectoryFailure;
  constructor(reason: ProspectDirectoryFailure, message: string) {
    super(message);
    this.name = "ProspectDirectoryError";
    this.reason = reason;
  }
}

// ---- Searches, runs, traces, results and monitors (docs/decisions/026-radar-runs.md) ----

/** A page of a run's results, in reading order. */
export interface ResultPage {
  items: RunResult[];
  /** Pass as `afterPosition` for the next page; null on the last. */
  next: number | null;
}

/**
 * Searches, their runs, and each run's trace and results. Absence is `null` or `[]`; every method
 * is atomic on its own. Runs change by compare-and-set on `version`.
 */
export interface RunStore {
  insertSearch(search: RadarSearch): Promise<void>;
  getSearch(workspaceId: string, id: string): Promise<RadarSearch | null>;

  insertRun(run: RadarRun): Promise<void>;
  getRun(workspaceId: string, id: string): Promise<RadarRun | null>;
  /** Replaces the run stored at `next.version - 1`. */
  updateRun(next: RadarRun): Promise<"ok" | "version_conflict" | "not_found">;
  /**
   * Runs `queued` or `running` whose lease ended before `now` (or that have none), oldest first,
   * across workspaces: what a restarted worker resumes. At most `limit`.
   */
  staleRuns(now: string, limit: number): Promise<RadarRun[]>;

  /**
   * Appends a step numbered after the run's last (1 for the first); concurrent appends get
   * distinct numbers. Returns the step as stored.
   */
  appendStep(workspaceId: string, runId: string, step: Omit<TraceStep, "seq">): Promise<TraceStep>;
  /** Steps with `seq > afterSeq`, in order, at most `limit`. */
  steps(workspaceId: string, runId: string, afterSeq: number, limit: number): Promise<TraceStep[]>;

  /**
   * Claims `(run, provider_id)` for `result`; when claimed before (by this run, an earlier
   * attempt or a concurrent worker) answers that claim and writes nothing.
   */
  claimResult(result: RunResult): Promise<{ claimed: true } | { claimed: false; existing: RunResult }>;
  /** A run's results with `position > afterPosition`, in order, at most `limit`. */
  results(workspaceId: string, runId: string, afterPosition: number, limit: number): Promise<ResultPage>;
  /** How many of a run's results had each outcome. */
  countResults(workspaceId: string, runId: string): Promise<Record<ResultOutcome, number>>;
}

/**
 * Monitors: a search re-run every interval within a budget. Absence is `null`; every method is
 * atomic on its own. A monitor changes by compare-and-set on `version`.
 */
export interface MonitorStore {
  insertMonitor(monitor: RadarMonitor): Promise<void>;
  getMonitor(workspaceId: string, id: string): Promise<RadarMonitor | null>;
  /**
   * A monitor by id alone, across workspaces: only the signed monitor webhook asks, before any
   * workspace is known (like webhook deliveries, ADR 010).
   */
  monitorById(id: string): Promise<RadarMonitor | null>;
  /** The monitor of a search (one at most). */
  monitorOfSearch(workspaceId: string, searchId: string): Promise<RadarMonitor | null>;
  /** Replaces the monitor stored at `next.version - 1`. */
  updateMonitor(next: RadarMonitor): Promise<"ok" | "version_conflict" | "not_found">;
  /** Active monitors whose `next_run_at` is at or before `now`, across workspaces, soonest first, at most `limit`. */
  dueMonitors(now: string, limit: number): Promise<RadarMonitor[]>;
}

/** Radar's stores, one bundle per adapter (adapters/<adapter>/radar/). */
export interface RadarStores {
  radarRuns: RunStore;
  radarMonitors: MonitorStore;
}

/** What radar's use cases are given: its stores and those of the modules it writes through (ADR 019). */
export type RadarDeps = CoreDeps<RadarStores & CreditStores & CollectionStores & TopicStores & WorkspaceStores & WebhookStores> & {
  /** Where radar finds companies and people (the sample directory or PDL); without it, radar finds none. */
  prospects?: ProspectDirectory;
  /** What radar charges per result (RADAR_PRICES, contacts' `PriceTable`); default `DEFAULT_RUN_PRICES`. */
  radarPrices?: RunPrices;
  /** How long a worker owns a radar run before another may take it over; default 30 s. */
  radarRunLeaseMs?: number;
  /** The plan-limits gate (billing's `planLimitsGate`): a run's rows count as records. */
  capacity?: CapacityGate;
};
