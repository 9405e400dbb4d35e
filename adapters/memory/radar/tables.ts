import type { RadarMonitor, RadarRun, RadarSearch, RunResult, TraceStep } from "../../../core/radar/model.ts";

/** The in-memory tables of radar (the adapter's composition shares one object of every module's tables). */
export class RadarTables {
  /** search id → search */
  radarSearches = new Map<string, RadarSearch>();
  /** run id → run */
  radarRuns = new Map<string, RadarRun>();
  /** run id → its steps in `seq` order */
  radarSteps = new Map<string, TraceStep[] & { workspace_id?: string }>();
  /** `${run_id}:${provider_id}` → result */
  radarResults = new Map<string, RunResult>();
  /** run id → its results in position order */
  radarResultsByRun = new Map<string, RunResult[]>();
  /** monitor id → monitor */
  radarMonitors = new Map<string, RadarMonitor>();
}
