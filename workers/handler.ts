import type { ComposedDeps } from "../core/deps.ts";
import type { Job, JobKind } from "../core/jobs/kind.ts";

/** What runs the jobs of one kind: a thin call into core, like a route handler. */
export interface JobHandler<K extends JobKind = JobKind> {
  kind: K;
  run(deps: ComposedDeps, job: Job<K>): Promise<void>;
}

/**
 * Pairs a kind with its handler, typing the job the handler receives from the kind. Erased to the
 * common type for the registry: sound because `jobRunner` checks a job's payload against its
 * kind's schema before calling the kind's handler.
 */
export function handles<K extends JobKind>(kind: K, run: (deps: ComposedDeps, job: Job<K>) => Promise<void>): JobHandler {
  return { kind, run } as unknown as JobHandler;
}
