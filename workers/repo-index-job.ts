import type { CoreDeps } from "../core/deps.ts";
import type { Job } from "../core/jobs/ports.ts";
import { refreshRepoIndex } from "../core/topics/repo-index.ts";

/**
 * `repo.index`: reads the repo's default branch from the code host and replaces its file index.
 * A repo deleted since the job was queued is skipped. Idempotent: running it twice reads twice.
 */
export async function runRepoIndexJob(deps: CoreDeps, job: Extract<Job, { type: "repo.index" }>): Promise<void> {
  const repo = await deps.stores.repos.get(job.workspaceId, job.repoId);
  if (!repo) return;
  await refreshRepoIndex(deps, repo);
}

/** Every job type's handler: what a worker (in-process or on a shared queue) runs. */
export function jobHandler(deps: () => CoreDeps): (job: Job) => Promise<void> {
  return async (job) => {
    switch (job.type) {
      case "repo.index":
        return runRepoIndexJob(deps(), job);
    }
  };
}
