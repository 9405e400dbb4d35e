import { Type } from "@sinclair/typebox";
import { GrantView, listGrants, revokeGrant } from "../../../core/identity/mod.ts";
import { IdSchema, SlugSchema } from "../../../core/workspaces/mod.ts";
import type { ServerDeps } from "../../deps.ts";
import { identityValue } from "../../http/error-status.ts";
import { authenticated, errors, strict } from "../../http/schemas.ts";
import { workspaceScope } from "../../http/workspace-scope.ts";

/** A workspace's OAuth grants: who allowed which client what, and their revocation. */
export function grantRoutes(deps: ServerDeps) {
  const core = deps.core;
  return workspaceScope(deps, "oauth-grants")
    .get(
      "/oauth/grants",
      async ({ principal, query }) =>
        identityValue(await listGrants(core, principal, { limit: query.limit, cursor: query.cursor ?? null })),
      {
        params: Type.Object({ slug: SlugSchema }, strict),
        query: Type.Object({
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
          cursor: Type.Optional(IdSchema),
        }, strict),
        response: {
          200: Type.Object({ items: Type.Array(GrantView), nextCursor: Type.Union([Type.String(), Type.Null()]) }),
          ...errors(400, 401, 403, 404),
        },
        detail: {
          ...authenticated,
          tags: ["oauth"],
          summary: "List OAuth grants",
          description:
            "The live grants of the workspace, newest first, in keyset pages (`limit` ≤ 100, `cursor` = `nextCursor`): the caller's own; owners and admins see everyone's. Each: client, scopes, creation and last use. A faceless key has none (403).",
        },
      },
    )
    .delete(
      "/oauth/grants/:id",
      async ({ principal, params }) => {
        identityValue(await revokeGrant(core, principal, params.id));
        return { id: params.id, deleted: true as const };
      },
      {
        params: Type.Object({ slug: SlugSchema, id: IdSchema }, strict),
        response: { 200: Type.Object({ id: Type.String(), deleted: Type.Literal(true) }), ...errors(400, 401, 403, 404) },
        detail: {
          ...authenticated,
          tags: ["oauth"],
          summary: "Revoke an OAuth grant",
          description:
            "Ends the grant and every token issued under it at once (the next request with them is a 401). One's own; owners and admins any (to a member another person's grant is a 404, as an unknown one). A faceless key has none (403). Over OAuth it needs `work:write` (403 `insufficient_scope`). Publishes `oauth.grant.revoked`.",
        },
      },
    );
}
