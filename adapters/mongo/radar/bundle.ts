import type { CollectionStores } from "../../../core/collections/ports.ts";
import type { RadarStores } from "../../../core/radar/ports.ts";
import { deleteWorkspaceDocs, type MongoBundle } from "../bundle.ts";
import type { RadarCollections } from "./collections.ts";
import { MongoContactUnlockStore } from "./contact-unlock-store.ts";
import { MongoMonitorStore } from "./monitor-store.ts";
import { MongoRunStore } from "./run-store.ts";
import type { MongoCreditLedgerStore } from "../credits/credit-ledger-store.ts";

/**
 * `ledger`: the credits bundle's (one per process: it remembers each account's head);
 * `collections`: the collection bundle's stores (an unlock's context reads them).
 */
export function mongoRadarBundle(
  c: RadarCollections,
  ledger: MongoCreditLedgerStore,
  collections: CollectionStores,
): MongoBundle<RadarStores> {
  return {
    stores: {
      radarRuns: new MongoRunStore(c),
      radarMonitors: new MongoMonitorStore(c),
      contactUnlocks: new MongoContactUnlockStore(c, ledger, collections),
    },
    purgeWorkspace: (id) =>
      deleteWorkspaceDocs(
        id,
        c.radarSearches,
        c.radarRuns,
        c.radarMonitors,
        c.radarVersions,
        c.radarSteps,
        c.radarResults,
        c.radarUnlocks,
        c.radarUnlockLeases,
        c.radarUnlockEnds,
      ),
  };
}
