import { Type } from "@sinclair/typebox";
import { jobKind } from "../jobs/mod.ts";

// A pattern, not `format: "uuid"`: a worker process checks payloads without a format registry.
const Id = Type.String({ pattern: "^[0-9a-fA-F-]{36}$" });

/** Runs (or resumes) a started radar run. Equal waiting jobs collapse: one per run. */
export const radarRunJob = jobKind({
  name: "radar.run",
  payload: Type.Object({ run_id: Id }, { additionalProperties: false }),
  dedupKey: (p) => p.run_id,
});

/** Starts a monitor's next run when it is due. */
export const radarMonitorJob = jobKind({
  name: "radar.monitor",
  payload: Type.Object({ monitor_id: Id }, { additionalProperties: false }),
  dedupKey: (p) => p.monitor_id,
});
