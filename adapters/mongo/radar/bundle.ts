import type { RadarStores } from "../../../core/radar/ports.ts";
import { deleteWorkspaceDocs, type MongoBundle } from "../bundle.ts";
import type { RadarCollections } from "./collections.ts";
import { MongoMonitorStore } from "./monitor-store.ts";
import { MongoRunStore } from "./run-store.ts";
import { mongoRadarTransfer } from "./transfer.ts";

export function mongoRadarBundle(c: RadarCollections): MongoBundle<RadarStores> {
  return {
    stores: { radarRuns: new MongoRunStore(c), radarMonitors: new MongoMonitorStore(c) },
    transfer: mongoRadarTransfer(c),
    purgeWorkspace: (id) =>
      deleteWorkspaceDocs(id, c.radarSearches, c.radarRuns, c.radarMonitors, c.radarVersions, c.radarSteps, c.radarResults),
  };
}
