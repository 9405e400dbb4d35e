import type { RadarStores } from "../../../core/radar/ports.ts";
import { dropWorkspaceRows, type MemoryBundle } from "../bundle.ts";
import { MemoryMonitorStore } from "./monitor-store.ts";
import { MemoryRunStore } from "./run-store.ts";
import type { RadarTables } from "./tables.ts";
import { memoryRadarTransfer } from "./transfer.ts";

export function memoryRadarBundle(t: RadarTables): MemoryBundle<RadarStores> {
  return {
    stores: { radarRuns: new MemoryRunStore(t), radarMonitors: new MemoryMonitorStore(t) },
    transfer: memoryRadarTransfer(t),
    purgeWorkspace: (id) => {
      for (const [runId, run] of t.radarRuns) {
        if (run.workspace_id !== id) continue;
        t.radarSteps.delete(runId);
        t.radarResultsByRun.delete(runId);
      }
      dropWorkspaceRows(id, t.radarSearches, t.radarRuns, t.radarResults, t.radarMonitors);
    },
  };
}
