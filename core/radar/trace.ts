import type { RadarDeps } from "./ports.ts";
import { FINISHED_RUN_STATES, type RadarRun, type TraceStep } from "./model.ts";

/** Appends a step to the run's trace (append-only; the stream and `GET …/trace` read it). */
export function trace(deps: RadarDeps, run: RadarRun, type: string, data: Record<string, unknown>): Promise<TraceStep> {
  return deps.stores.radarRuns.appendStep(run.workspace_id, run.id, { type, at: deps.clock.now().toISOString(), data });
}

/** The steps that end a run's trace. */
export const TERMINAL_STEPS = ["run.completed", "run.failed", "run.cancelled"] as const;
export const isTerminalStep = (type: string): boolean => (TERMINAL_STEPS as readonly string[]).includes(type);

const FOLLOW_PAGE = 200;

/**
 * A run's steps after `afterSeq`, then the ones appended later as they come (read every
 * `pollMs`: any instance may append them), ending after the terminal step or when `signal`
 * aborts. Reads the store, so it works across instances and after restarts alike.
 */
export async function* followTrace(
  deps: RadarDeps,
  workspaceId: string,
  runId: string,
  afterSeq: number,
  signal: AbortSignal,
  pollMs = 250,
): AsyncGenerator<TraceStep> {
  let seq = afterSeq;
  while (!signal.aborted) {
    const steps = await deps.stores.radarRuns.steps(workspaceId, runId, seq, FOLLOW_PAGE);
    for (const step of steps) {
      yield step;
      seq = step.seq;
      if (isTerminalStep(step.type)) return;
    }
    if (steps.length === FOLLOW_PAGE) continue;
    // Nothing new: a finished run's trace is complete (Last-Event-ID at or past its end).
    if (steps.length === 0) {
      const run = await deps.stores.radarRuns.getRun(workspaceId, runId);
      if (!run || FINISHED_RUN_STATES.includes(run.state)) return;
    }
    await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, pollMs);
      signal.addEventListener("abort", () => (clearTimeout(t), resolve()), { once: true });
    });
  }
}
