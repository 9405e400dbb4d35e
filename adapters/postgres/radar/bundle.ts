import type { RadarStores } from "../../../core/radar/ports.ts";
import type { SqlBundle } from "../bundle.ts";
import type { SqlDriver } from "../driver.ts";
import { PostgresMonitorStore } from "./monitor-store.ts";
import { PostgresRunStore } from "./run-store.ts";
import { sqlRadarTransfer } from "./transfer.ts";

/** Radar's SQL stores; a workspace's rows go with it (foreign keys cascade). */
export function sqlRadarBundle(driver: SqlDriver): SqlBundle<RadarStores> {
  return {
    stores: { radarRuns: new PostgresRunStore(driver), radarMonitors: new PostgresMonitorStore(driver) },
    transfer: sqlRadarTransfer(driver),
  };
}
