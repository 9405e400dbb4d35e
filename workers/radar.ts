import { executeMonitor, executeRun, radarMonitorJob, radarRunJob } from "../core/radar/mod.ts";
import { handles } from "./handler.ts";

/** Runs (or resumes) a started radar run. */
export const radarRunHandler = handles(radarRunJob, (deps, job) => executeRun(deps, job.workspace_id, job.payload.run_id));

/** Starts a monitor's next run when it is due. */
export const radarMonitorHandler = handles(radarMonitorJob, (deps, job) => executeMonitor(deps, job.workspace_id, job.payload.monitor_id));
