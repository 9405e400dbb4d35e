import { Type } from "@sinclair/typebox";
import { createRepo, CreateRepoDto, deleteRepo, getRepo, IdSchema, listRepos, Repo, SlugSchema } from "../../../core/workspaces/mod.ts";
import { getRepoIndexState, refreshRepo, RepoIndexState, RepoRefreshResult } from "../../../core/code-context/mod.ts";
import type { ServerDeps } from "../../deps.ts";
import { authenticated, Deleted, errors, pageOf, PageQuery, strict } from "../../http/schemas.ts";
import { workspaceScope } from "../../http/workspace-scope.ts";

const tags = ["repos"];
const SlugParams = Type.Object({ slug: SlugSchema }, strict);
const RepoParams = Type.Object({ slug: SlugSchema, id: IdSchema }, strict);

export function repoRoutes(deps: ServerDeps) {
  const core = deps.core;
  return workspaceScope(deps, "repos")
    .post(
      "/repos",
      async ({ principal, workspace, body, set }) => {
        const repo = await createRepo(core, principal, workspace, body);
        set.status = 201;
        return repo;
      },
      {
        parse: "json",
        params: SlugParams,
        body: CreateRepoDto,
        response: { 201: Repo, ...errors(400, 401, 403, 404, 409, 413) },
        detail: {
          ...authenticated,
          tags,
          summary: "Link a code repository (owner/admin)",
          description:
            "(provider, full_name) is unique in a workspace (409). `default_branch` defaults to `main`. A `clone_url` (or, without one, the hosted provider's address) this server will never read is 400 `VALIDATION_FAILED`, naming the setting that decides: a local path outside `CODE_HOST_LOCAL_ROOTS` (or into the service's own data), a host on a non-public address (`CODE_HOST_ALLOW_PRIVATE`). Linking queues the first read of the default branch's files (the file index anchors are checked against); the same checks run again on every read.",
        },
      },
    )
    .get(
      "/repos",
      async ({ workspace, query }) => {
        const { items, total, has_more } = await listRepos(core, workspace, query);
        return { repos: items, total, has_more };
      },
      {
        params: SlugParams,
        query: PageQuery,
        response: { 200: pageOf("repos", Repo), ...errors(400, 401, 404) },
        detail: { ...authenticated, tags, summary: "List repos", description: "Oldest first." },
      },
    )
    .get("/repos/:id", ({ workspace, params }) => getRepo(core, workspace, params.id), {
      params: RepoParams,
      response: { 200: Repo, ...errors(400, 401, 404) },
      detail: { ...authenticated, tags, summary: "Read a repo" },
    })
    .delete(
      "/repos/:id",
      async ({ principal, workspace, params }) => {
        await deleteRepo(core, principal, workspace, params.id);
        return { id: params.id, deleted: true as const };
      },
      {
        params: RepoParams,
        response: { 200: Deleted, ...errors(400, 401, 403, 404) },
        detail: { ...authenticated, tags, summary: "Remove a repo (owner/admin)", description: "Its file index goes with it." },
      },
    )
    .get("/repos/:id/index", ({ workspace, params }) => getRepoIndexState(core, workspace, params.id), {
      params: RepoParams,
      response: { 200: RepoIndexState, ...errors(400, 401, 404) },
      detail: {
        ...authenticated,
        tags,
        summary: "The repo's file index",
        description: "The commit of the default branch the index was read at, its file count and when. Anchors are validated against it.",
      },
    })
    .post(
      "/repos/:id/refresh",
      async ({ principal, workspace, params, set }) => {
        set.status = 201;
        return refreshRepo(core, principal, workspace, params.id);
      },
      {
        params: RepoParams,
        response: { 201: RepoRefreshResult, ...errors(400, 401, 403, 404) },
        detail: {
          ...authenticated,
          tags,
          summary: "Refresh the repo's file index (owner/admin)",
          description:
            "Queues a background job that reads the default branch's files from the code host (`refresh: queued`); the answer shows the index as it is now. Linking a repo and the code-host webhook's push events queue the same job.",
        },
      },
    );
}
