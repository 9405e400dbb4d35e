import type { Collection, Db } from "mongodb";
import type { MonitorDoc, ResultDoc, RunDoc, SearchDoc, StepDoc, VersionDoc } from "./documents.ts";

/** Radar's collections of one database (their indexes: indexes.ts). */
export interface RadarCollections {
  radarSearches: Collection<SearchDoc>;
  radarRuns: Collection<RunDoc>;
  radarMonitors: Collection<MonitorDoc>;
  radarVersions: Collection<VersionDoc>;
  radarSteps: Collection<StepDoc>;
  radarResults: Collection<ResultDoc>;
}

export const RADAR_COLLECTION_NAMES = {
  radarSearches: "radar_searches",
  radarRuns: "radar_runs",
  radarMonitors: "radar_monitors",
  radarVersions: "radar_versions",
  radarSteps: "radar_run_steps",
  radarResults: "radar_run_results",
} as const;

export function radarCollections(db: Db): RadarCollections {
  const n = RADAR_COLLECTION_NAMES;
  return {
    radarSearches: db.collection<SearchDoc>(n.radarSearches),
    radarRuns: db.collection<RunDoc>(n.radarRuns),
    radarMonitors: db.collection<MonitorDoc>(n.radarMonitors),
    radarVersions: db.collection<VersionDoc>(n.radarVersions),
    radarSteps: db.collection<StepDoc>(n.radarSteps),
    radarResults: db.collection<ResultDoc>(n.radarResults),
  };
}
