import type { RadarMonitor, RadarRun, RadarSearch, RunResult, TraceStep } from "../../../core/radar/model.ts";

/**
 * Radar's documents. Searches, runs and monitors are stored whole under `_id` = their id. Runs and
 * monitors change by compare-and-set: a write of version v+1 first inserts `<id>:<v+1>` into the
 * versions collection with the next state (the lock: one writer of v+1 wins, FerretDB v1 having no
 * atomic conditional update), then replaces the document forward (ADR 005). Version keys stay for
 * good (a late writer of v+1 must still collide); a snapshot is dropped once applied. Steps are
 * `<run_id>:<seq>`, results `<run_id>:<provider_id>`: the keys that number and claim them.
 */
export type SearchDoc = RadarSearch & { _id: string };
export type RunDoc = RadarRun & { _id: string };
export type MonitorDoc = RadarMonitor & { _id: string };
export interface VersionDoc {
  _id: string;
  workspace_id: string;
  of: string;
  version: number;
  /** The state of this version, until the document has moved past it. */
  snapshot?: RadarRun | RadarMonitor;
}
export type StepDoc = TraceStep & { _id: string; workspace_id: string; run_id: string };
export type ResultDoc = RunResult & { _id: string };
