import type { TransferKind } from "../../../core/kernel/store-transfer.ts";
import type { RadarMonitor, RadarRun, RadarSearch, RunResult } from "../../../core/radar/model.ts";
import { RADAR_TRANSFER_KINDS as K, type RunStepDoc } from "../../../core/radar/transfer.ts";
import { asDoc, memoryKind } from "./memory-kind.ts";
import type { RadarTables } from "./tables.ts";

/** Inserts `row` under `id` unless the table holds that id. */
function addNew<T>(table: Map<string, T>, id: string, row: T): boolean {
  if (table.has(id)) return false;
  table.set(id, row);
  return true;
}

/**
 * Radar's kinds on memory (ADR 067, 072): searches, runs and monitors as stored; a step goes to
 * its run's list at its own number; a result to both its claim key and its run's list in position
 * order, as `claimResult` keeps them.
 */
export function memoryRadarTransfer(t: RadarTables): TransferKind[] {
  return [
    memoryKind(
      K.searches,
      () => [...t.radarSearches.values()].map(asDoc),
      (d) => addNew(t.radarSearches, d.id as string, d as unknown as RadarSearch),
    ),
    memoryKind(K.runs, () => [...t.radarRuns.values()].map(asDoc), (d) => addNew(t.radarRuns, d.id as string, d as unknown as RadarRun)),
    memoryKind(
      K.runSteps,
      () =>
        [...t.radarSteps].flatMap(([runId, steps]) =>
          steps.map((s) => asDoc({ workspace_id: steps.workspace_id, run_id: runId, seq: s.seq, type: s.type, at: s.at, data: s.data }))
        ),
      (d) => {
        const { workspace_id, run_id, seq, type, at, data } = d as unknown as RunStepDoc;
        const steps = t.radarSteps.get(run_id) ?? Object.assign([], { workspace_id });
        if (steps[seq - 1]) return false;
        steps[seq - 1] = { seq, type, at, data };
        t.radarSteps.set(run_id, steps);
        return true;
      },
    ),
    memoryKind(K.runResults, () => [...t.radarResults.values()].map(asDoc), (d) => {
      const r = d as unknown as RunResult;
      if (!addNew(t.radarResults, `${r.run_id}:${r.provider_id}`, r)) return false;
      const list = t.radarResultsByRun.get(r.run_id) ?? [];
      list.push(structuredClone(r));
      list.sort((a, b) => a.position - b.position);
      t.radarResultsByRun.set(r.run_id, list);
      return true;
    }),
    memoryKind(
      K.monitors,
      () => [...t.radarMonitors.values()].map(asDoc),
      (d) => addNew(t.radarMonitors, d.id as string, d as unknown as RadarMonitor),
    ),
  ];
}
