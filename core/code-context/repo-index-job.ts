import { Type } from "@sinclair/typebox";
import { jobKind } from "../jobs/mod.ts";

/**
 * `repo.index`: read a linked repo's default branch and replace its file index
 * (`refreshRepoIndex`). Queued on linking, by `POST /repos/{id}/refresh` and by code-host pushes;
 * run by workers/repo-index.ts. One waiting job per repo: later triggers collapse into it.
 */
export const repoIndexJob = jobKind({
  name: "repo.index",
  payload: Type.Object({ repo_id: Type.String({ minLength: 1 }) }, { additionalProperties: false }),
  dedupKey: (p) => p.repo_id,
});
