import type { RadarStores } from "../../../core/radar/ports.ts";
import { deleteWorkspaceDocs, type MongoBundle } from "../bundle.ts";
import type { RadarCollections } from "./collections.ts";
import { MongoRadarStore } from "./radar-store.ts";

export function mongoRadarBundle(c: RadarCollections): MongoBundle<RadarStores> {
  return {
    stores: { radar: new MongoRadarStore(c) },
    purgeWorkspace: (id) =>
      deleteWorkspaceDocs(id, c.radarSearches, c.radarRuns, c.radarMonitors, c.radarVersions, c.radarSteps, c.radarResults, c.radarUnlocks),
  };
}
