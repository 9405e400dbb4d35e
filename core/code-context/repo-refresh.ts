import { type Principal } from "../access/mod.ts";
import type { CodeContextDeps } from "./ports.ts";
import { getRepo, type Workspace } from "../workspaces/mod.ts";
import { requestRepoIndex } from "./repo-index.ts";
import { assertCanRefreshRepo } from "./policy.ts";
import { RepoIndexState, RepoRefreshResult } from "./dto.ts";

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
