import type { CollectionStores } from "../../../core/collections/ports.ts";
import type { RadarStores } from "../../../core/radar/ports.ts";
import { dropWorkspaceRows, type MemoryBundle } from "../bundle.ts";
import { MemoryContactUnlockStore } from "./contact-unlock-store.ts";
import { MemoryMonitorStore } from "./monitor-store.ts";
import { MemoryRunStore } from "./run-store.ts";
import type { RadarTables } from "./tables.ts";
import type { CreditTables } from "../credits/tables.ts";
import { MemoryCreditLedgerStore } from "../credits/credit-ledger-store.ts";

/** `collections`: the collection bundle's stores (an unlock's context reads them). */
export function memoryRadarBundle(t: RadarTables & CreditTables, collections: CollectionStores): MemoryBundle<RadarStores> {
  return {
    stores: {
      radarRuns: new MemoryRunStore(t),
      radarMonitors: new MemoryMonitorStore(t),
      contactUnlocks: new MemoryContactUnlockStore(t, new MemoryCreditLedgerStore(t), collections),
    },
    purgeWorkspace: (id) => {
      for (const [runId, run] of t.radarRuns) {
        if (run.workspace_id !== id) continue;
        t.radarSteps.delete(runId);
        t.radarResultsByRun.delete(runId);
      }
      dropWorkspaceRows(id, t.radarSearches, t.radarRuns, t.radarResults, t.radarMonitors, t.radarUnlocks, t.radarUnlockLeases);
    },
  };
}
