import type { RadarStores } from "../../../core/radar/ports.ts";
import type { SqlBundle } from "../bundle.ts";
import type { SqlDriver } from "../driver.ts";
import { PostgresRadarStore } from "./radar-store.ts";

/** Radar's SQL stores; a workspace's rows go with it (foreign keys cascade). */
export function sqlRadarBundle(driver: SqlDriver): SqlBundle<RadarStores> {
  return { stores: { radar: new PostgresRadarStore(driver) } };
}
