import type { TransferKind } from "../../../core/kernel/store-transfer.ts";
import { RADAR_TRANSFER_KINDS as K } from "../../../core/radar/transfer.ts";
import type { RadarCollections } from "./collections.ts";
import { byWorkspace, mongoKind } from "./mongo-kind.ts";

/** A sort by the key, after the workspace when the read is not scoped (the indexes' order). */
const keyed = (key: Record<string, 1>) => (ws: string | undefined) => (ws === undefined ? { workspace_id: 1, ...key } as const : key);

/**
 * Radar's kinds on MongoDB (ADR 067, 072): searches, runs and monitors under `_id` = their id,
 * steps under `<run_id>:<seq>` and results under `<run_id>:<provider_id>`, as the stores insert
 * them. The versions collection (the compare-and-set locks, ADR 005) does not move: a copied run
 * or monitor changes on from its version, whose next key the target has never taken.
 */
export function mongoRadarTransfer(c: RadarCollections): TransferKind[] {
  const id = (d: { id?: unknown }) => d.id as string;
  return [
    mongoKind({ ...K.searches, collection: c.radarSearches, filter: byWorkspace, sort: keyed({ _id: 1 }), idOf: id }),
    mongoKind({ ...K.runs, collection: c.radarRuns, filter: byWorkspace, sort: keyed({ _id: 1 }), idOf: id }),
    mongoKind({
      ...K.runSteps,
      collection: c.radarSteps,
      filter: byWorkspace,
      sort: keyed({ run_id: 1, seq: 1 }),
      idOf: (d) => `${d.run_id}:${d.seq}`,
    }),
    mongoKind({
      ...K.runResults,
      collection: c.radarResults,
      filter: byWorkspace,
      sort: keyed({ run_id: 1, provider_id: 1 }),
      idOf: (d) => `${d.run_id}:${d.provider_id}`,
    }),
    mongoKind({ ...K.monitors, collection: c.radarMonitors, filter: byWorkspace, sort: keyed({ _id: 1 }), idOf: id }),
  ];
}
