import type { TraceStep } from "./model.ts";

/**
 * Radar's kinds as they move between stores (core/kernel/store-transfer.ts, ADR 067, 072), in
 * write order: one list the three adapters declare alike. Searches, runs and monitors are their
 * stored types (`RadarSearch`, `RadarRun` with the worker's lease, cursor and attempt,
 * `RadarMonitor`); a result is its `RunResult`; a trace step is `RunStepDoc`.
 */
export const RADAR_TRANSFER_KINDS = {
  searches: { name: "radar.searches", tenant: true, key: ["id"] },
  runs: { name: "radar.runs", tenant: true, key: ["id"] },
  runSteps: { name: "radar.run_steps", tenant: true, key: ["run_id", "seq"] },
  runResults: { name: "radar.run_results", tenant: true, key: ["run_id", "provider_id"] },
  monitors: { name: "radar.monitors", tenant: true, key: ["id"] },
} as const;

/** A step of a run's trace as it moves: the step and the run (and workspace) it belongs to. */
export type RunStepDoc = TraceStep & { workspace_id: string; run_id: string };
