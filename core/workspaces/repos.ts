import { type Principal } from "../access/mod.ts";
import { assertCanManageWorkspace } from "./policy.ts";
import type { WorkspaceDeps } from "./ports.ts";
import { emit } from "../events/mod.ts";
import { conflict, notFound, validationFailed } from "../kernel/errors.ts";
import { uuidv7 } from "../kernel/ids.ts";
import { type OffsetQuery, type OffsetResult, parseOffsetPage, toOffsetResult } from "../kernel/paging.ts";
import type { Repo, Workspace } from "./model.ts";
import type { CreateRepoDto } from "./dto.ts";

export async function listRepos(deps: WorkspaceDeps, ws: Workspace, query: OffsetQuery = {}): Promise<OffsetResult<Repo>> {
  const page = parseOffsetPage(query);
  const { items, total } = await deps.stores.repos.list(ws.id, page);
  return toOffsetResult(items, total, page);
}

export async function getRepo(deps: WorkspaceDeps, ws: Workspace, repoId: string): Promise<Repo> {
  const repo = await deps.stores.repos.get(ws.id, repoId);
  if (!repo) throw notFound("Repo");
  return repo;
}

/** Linking a repository exposes its code to the workspace's agents: owner/admin only. */
export async function createRepo(deps: WorkspaceDeps, p: Principal, ws: Workspace, dto: CreateRepoDto): Promise<Repo> {
  assertCanManageWorkspace(p, "link a repo");
  const repo: Repo = {
    id: uuidv7(),
    workspace_id: ws.id,
    provider: dto.provider,
    full_name: dto.full_name,
    default_branch: dto.default_branch ?? "main",
    clone_url: dto.clone_url ?? null,
    created_at: deps.clock.now().toISOString(),
  };
  // A source the code host will never read (the server's own disk outside its roots, a private
  // address) is refused now, with the reason, rather than linked and failing in the background.
  const refusal = await deps.codeHost?.refusal?.(repo);
  if (refusal) throw validationFailed(refusal, [{ path: "/clone_url", message: refusal }]);
  if ((await deps.stores.repos.insert(repo)) === "taken") {
    throw conflict(`Repo is already linked: ${dto.provider}:${dto.full_name}`);
  }
  await emit(deps, ws.id, "repo.linked", p, { repo_id: repo.id, provider: repo.provider, full_name: repo.full_name });
  // E.g. its first file index, in the background (anchors are checked against it); never fails the link.
  await deps.onRepoLinked?.(deps, repo).catch(() => {});
  return repo;
}

export async function deleteRepo(deps: WorkspaceDeps, p: Principal, ws: Workspace, repoId: string): Promise<void> {
  assertCanManageWorkspace(p, "remove a repo");
  if (!(await deps.stores.repos.delete(ws.id, repoId))) throw notFound("Repo");
  await emit(deps, ws.id, "repo.removed", p, { repo_id: repoId });
}
