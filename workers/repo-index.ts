import { refreshRepoIndex } from "../core/code-context/repo-index.ts";
import { repoIndexJob } from "../core/code-context/repo-index-job.ts";
import { handles } from "./handler.ts";

/**
 * `repo.index`: reads the repo's default branch from the code host and replaces its file index.
 * A repo deleted since the job was queued is skipped. Idempotent: running it twice reads twice.
 */
export const repoIndexHandler = handles(repoIndexJob, async (deps, job) => {
  const repo = await deps.stores.repos.get(job.workspace_id, job.payload.repo_id);
  if (!repo) return;
  await refreshRepoIndex(deps, repo);
});
