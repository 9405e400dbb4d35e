import { type Static, Type } from "@sinclair/typebox";
import { type Principal } from "../access/mod.ts";
import type { CodeContextDeps } from "./ports.ts";
import { literalUnion } from "../kernel/literal-union.ts";
import { getRepo, type Workspace } from "../workspaces/mod.ts";
import { requestRepoIndex } from "./repo-index.ts";
import { assertCanRefreshRepo } from "./policy.ts";

const Nullable = <T extends ReturnType<typeof Type.String>>(s: T) => Type.Union([s, Type.Null()]);

export const RepoIndexState = Type.Object({
  repo_id: Type.String(),
  indexed: Type.Boolean({ description: "Whether the repo has a file index yet." }),
  commit: Nullable(Type.String({ description: "The default branch's commit the index was read at." })),
  file_count: Type.Union([Type.Integer(), Type.Null()]),
  refreshed_at: Nullable(Type.String()),
});
export type RepoIndexState = Static<typeof RepoIndexState>;

export const RepoRefreshResult = Type.Object({
  ...RepoIndexState.properties,
  refresh: literalUnion(["queued", "done", "failed"] as const, {
    description:
      "`queued`: a background job will read the repo (the index above is the current one); `done`/`failed`: read at once (servers without a job queue).",
  }),
});
export type RepoRefreshResult = Static<typeof RepoRefreshResult>;

/** The state of a repo's file index (`GET /repos/{id}/index`). */
export async function getRepoIndexState(deps: CodeContextDeps, ws: Workspace, repoId: string): Promise<RepoIndexState> {
  const repo = await getRepo(deps, ws, repoId);
  const head = await deps.stores.repoIndex.head(ws.id, repo.id);
  return {
    repo_id: repo.id,
    indexed: head !== null,
    commit: head?.commit ?? null,
    file_count: head?.file_count ?? null,
    refreshed_at: head?.refreshed_at ?? null,
  };
}

/** Queues a refresh of the repo's file index (`POST /repos/{id}/refresh`, owner/admin). */
export async function refreshRepo(deps: CodeContextDeps, p: Principal, ws: Workspace, repoId: string): Promise<RepoRefreshResult> {
  assertCanRefreshRepo(p);
  const repo = await getRepo(deps, ws, repoId);
  const refresh = await requestRepoIndex(deps, repo);
  return { ...(await getRepoIndexState(deps, ws, repo.id)), refresh };
}
