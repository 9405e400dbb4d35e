import { Type } from "@sinclair/typebox";
import { ApiKeyView, createApiKey, CreateApiKeyDto, CreatedApiKey, listApiKeys, revokeApiKey } from "../../../core/access/mod.ts";
import { IdSchema, SlugSchema } from "../../../core/workspaces/mod.ts";
import type { ServerDeps } from "../../deps.ts";
import { authenticated, Deleted, errors, pageOf, PageQuery, strict } from "../../http/schemas.ts";
import { workspaceScope } from "../../http/workspace-scope.ts";

const tags = ["api-keys"];

export function apiKeyRoutes(deps: ServerDeps) {
  const core = deps.core;
  return workspaceScope(deps, "api-keys")
    .post(
      "/api-keys",
      async ({ principal, workspace, body, set }) => {
        const created = await createApiKey(core, principal, workspace, body);
        set.status = 201;
        return created;
      },
      {
        parse: "json",
        params: Type.Object({ slug: SlugSchema }, strict),
        body: CreateApiKeyDto,
        response: { 201: CreatedApiKey, ...errors(400, 401, 403, 404, 413) },
        detail: {
          ...authenticated,
          tags,
          summary: "Create an API key",
          description:
            "Returns the raw key in `key`, once; it is stored encrypted and looked up by its hash, and no later response or log shows it. Keys are scoped to this workspace. Keys are minted by people (a personal key or the dashboard session): service keys and OAuth access tokens cannot create keys (403).",
        },
      },
    )
    .get(
      "/api-keys",
      async ({ principal, workspace, query }) => {
        const { items, total, has_more } = await listApiKeys(core, principal, workspace, query);
        return { api_keys: items, total, has_more };
      },
      {
        params: Type.Object({ slug: SlugSchema }, strict),
        query: PageQuery,
        response: { 200: pageOf("api_keys", ApiKeyView), ...errors(400, 401, 403, 404) },
        detail: {
          ...authenticated,
          tags,
          summary: "List API keys",
          description: "Newest first. Owner/admin see every key of the workspace; a member sees the keys that act as them.",
        },
      },
    )
    .delete(
      "/api-keys/:id",
      async ({ principal, workspace, params }) => {
        await revokeApiKey(core, principal, workspace, params.id);
        return { id: params.id, deleted: true as const };
      },
      {
        params: Type.Object({ slug: SlugSchema, id: IdSchema }, strict),
        response: { 200: Deleted, ...errors(400, 401, 403, 404) },
        detail: {
          ...authenticated,
          tags,
          summary: "Revoke an API key",
          description:
            "Takes effect at once: the next request with the key is a 401. Owner/admin revoke any key; a member revokes their own.",
        },
      },
    );
}
