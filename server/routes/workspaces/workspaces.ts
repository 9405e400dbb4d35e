import { Type } from "@sinclair/typebox";
import { Elysia } from "elysia";
import { CreatedApiKey } from "../../../core/access/mod.ts";
import { CommercialUsage, commercialUsage } from "../../../core/billing/mod.ts";
import {
  bootstrapWorkspace,
  CreateWorkspaceDto,
  deleteWorkspace,
  Identity,
  me,
  Member,
  setPlan,
  SetPlanDto,
  SlugSchema,
  updateWorkspace,
  UpdateWorkspaceDto,
  Workspace,
  WorkspaceCounts,
  workspaceHealth,
} from "../../../core/workspaces/mod.ts";
import type { ServerDeps } from "../../deps.ts";
import { optionalCaller, requireCaller } from "../../http/authenticate.ts";
import { requireOperatorBootstrap } from "../../http/platform-operator.ts";
import { clientAddress, enforceRateLimit } from "../../http/rate-limit.ts";
import { authenticated, Deleted, errors, strict } from "../../http/schemas.ts";
import { workspaceScope } from "../../http/workspace-scope.ts";

const Bootstrapped = Type.Object({
  workspace: Workspace,
  owner: Identity,
  member: Member,
  api_key: CreatedApiKey,
});

const WorkspaceHealth = Type.Object({
  workspace: Type.Object({ id: Type.String(), slug: Type.String(), plan: Type.String() }),
  counts: WorkspaceCounts,
  store: Type.Object({ kind: Type.String(), ok: Type.Boolean(), latency_ms: Type.Number() }),
});

const Me = Type.Object({
  principal: Type.Object({
    kind: Type.Union([Type.Literal("identity"), Type.Literal("service")]),
    via: Type.Union([Type.Literal("api_key"), Type.Literal("oauth"), Type.Literal("session")]),
    credential_id: Type.String({ description: "The API key's id; over OAuth, the grant's; over a session, the session's id." }),
    client_id: Type.Optional(Type.String({ description: "Over OAuth: the client the token was issued to." })),
    scopes: Type.Optional(Type.Array(Type.String(), { description: "Over OAuth: the scopes its grant holds." })),
  }),
  identity: Type.Union([Identity, Type.Null()]),
  workspace: Type.Union([Workspace, Type.Null()], {
    description: "The credential's workspace; null over a dashboard session, which is the person's in every workspace.",
  }),
  role: Type.Union([Member.properties.role, Type.Null()]),
  memberships: Type.Array(
    Type.Object({
      workspace: Type.Object({ id: Type.String(), slug: Type.String(), name: Type.String() }),
      role: Member.properties.role,
    }),
    { description: "The person's memberships (at most 100), each with the workspace's slug and name." },
  ),
});

const SlugParams = Type.Object({ slug: SlugSchema }, strict);

export function workspaceRoutes(deps: ServerDeps) {
  const core = deps.core;
  const bootstrap = new Elysia({ name: "workspaces-bootstrap" })
    .post(
      "/workspaces",
      async ({ body, request, set, server }) => {
        if (deps.config.workspaceBootstrap === "operator") {
          // A closed server: the operator creates workspaces, each with a new owner from owner_email.
          await requireOperatorBootstrap(deps, { request, set });
          set.status = 201;
          return bootstrapWorkspace(core, null, body);
        }
        // A header credential, else the dashboard session (the signed-in person owns it), else anonymous.
        const caller = await optionalCaller(deps, { request, set });
        const limits = deps.rateLimits;
        if (caller) await enforceRateLimit(limits, deps.logger, `key:${caller.principal.credentialId}`, limits.perKey, set.headers);
        else {
          const ip = clientAddress(request, server, limits.trustProxy);
          await enforceRateLimit(limits, deps.logger, `ip:${ip}:bootstrap`, limits.perIp, set.headers);
        }
        set.status = 201;
        return bootstrapWorkspace(core, caller?.principal ?? null, body);
      },
      {
        parse: "json",
        body: CreateWorkspaceDto,
        response: { 201: Bootstrapped, ...errors(400, 401, 403, 409, 413, 429) },
        detail: {
          // Public, and optionally authenticated: `{}` is "no credentials", the others "or a credential".
          security: [{}, ...authenticated.security],
          tags: ["workspaces"],
          summary: "Create a workspace (public bootstrap)",
          description:
            "Public, unless the server runs with `WORKSPACE_BOOTSTRAP=operator`: then only the platform operator key (`x-api-key: <PLATFORM_ADMIN_KEY>`) creates workspaces, each owned by a new identity from `owner_email`; without a credential that server answers 401, with any other credential (an API key, an OAuth token, the dashboard session) 403. Otherwise: creates the workspace, its owner and the owner's first API key, whose raw value is in `api_key.key` and is never shown again. Without credentials a new owner identity is created from `owner_email` (an e-mail that already has an identity is a 409: call this with one of that person's keys instead). With a credential, the caller's person owns the new workspace: an API key (`x-api-key` or `Authorization: Bearer`; a faceless service key is 403), an OAuth access token with `work:write` (a read-only one is 403 `insufficient_scope`), or the dashboard session (cookie `wks_session`, with this service's `Origin`, else 403). A taken slug is a 409.",
        },
      },
    )
    .get(
      "/me",
      async ({ request, set }) => {
        const { principal, workspace } = await requireCaller(deps, { request, set });
        await enforceRateLimit(deps.rateLimits, deps.logger, `key:${principal.credentialId}`, deps.rateLimits.perKey, set.headers);
        return me(core, principal, workspace);
      },
      {
        response: { 200: Me, ...errors(401, 429) },
        detail: {
          ...authenticated,
          tags: ["workspaces"],
          summary: "Current identity and workspace context",
          description:
            "Any credential. Over an API key: its workspace and the person's memberships; over OAuth: the token's workspace only, with `client_id` and `scopes`; over a dashboard session (cookie `wks_session`): `workspace` null and every membership.",
        },
      },
    );

  const scoped = workspaceScope(deps, "workspaces")
    .get("", ({ workspace }) => workspace, {
      params: SlugParams,
      response: { 200: Workspace, ...errors(401, 404) },
      detail: { ...authenticated, tags: ["workspaces"], summary: "Read a workspace" },
    })
    .patch("", ({ principal, workspace, body }) => updateWorkspace(core, principal, workspace, body), {
      parse: "json",
      params: SlugParams,
      body: UpdateWorkspaceDto,
      response: { 200: Workspace, ...errors(400, 401, 403, 404, 413) },
      detail: { ...authenticated, tags: ["workspaces"], summary: "Update a workspace (owner/admin)" },
    })
    .delete(
      "",
      async ({ principal, workspace }) => {
        await deleteWorkspace(core, principal, workspace);
        return { id: workspace.id, deleted: true as const };
      },
      {
        params: SlugParams,
        response: { 200: Deleted, ...errors(401, 403, 404) },
        detail: {
          ...authenticated,
          tags: ["workspaces"],
          summary: "Delete a workspace (owner)",
          description: "Owner only (not admin): removes the workspace and all of its data, its API keys included.",
        },
      },
    )
    .patch("/plan", ({ principal, workspace, body }) => setPlan(core, principal, workspace, body), {
      parse: "json",
      params: SlugParams,
      body: SetPlanDto,
      response: { 200: Workspace, ...errors(400, 401, 403, 404, 409, 413) },
      detail: {
        ...authenticated,
        tags: ["workspaces"],
        summary: "Set the plan (owner/admin)",
        description:
          'The current plan again is a 200 that changes nothing. `enterprise` is a contract the platform operator sets and ends: neither set nor left here (409 `PLAN_CHANGE_NOT_ALLOWED`). Without a billing provider (self-hosted, nothing charged) `free`, `team` and `business` switch freely, and a plan set this way includes no radar credits; with one, other changes are 409 `PLAN_CHANGE_NOT_ALLOWED` (use checkout or the portal). A downgrade below usage deletes nothing: the kinds over the new limits show in `over_limit` of commercial usage and, under `PLAN_LIMITS=enforce`, their creates are refused. Publishes `workspace.plan_changed` with `from`, `to`, `source: "owner"`.',
      },
    })
    .get("/commercial-usage", ({ principal, workspace }) => commercialUsage(core, principal, workspace), {
      params: SlugParams,
      response: { 200: CommercialUsage, ...errors(401, 404) },
      detail: {
        ...authenticated,
        tags: ["workspaces"],
        summary: "Commercial usage against the plan (any member)",
        description:
          "The plan, its current period (the subscription's or contract's, else the calendar month, UTC) and limits (`null`: unlimited), exact counts against each limit (members of every role; topics and collections, archived included; records of all collections), the period's radar credits from the ledger (`included` granted for the period, `used` charged in it, the `balance` now), the kinds beyond their limit (`over_limit`, after a downgrade), and the billing account (`status` `none` until a checkout or the billing webhook records one, then `active`, `trialing`, `past_due` or `canceled`, with `current_period_end`). Usage is counted whether or not `PLAN_LIMITS=enforce`.",
      },
    })
    .get("/health", ({ workspace }) => workspaceHealth(core, workspace), {
      params: SlugParams,
      response: { 200: WorkspaceHealth, ...errors(401, 404) },
      detail: { ...authenticated, tags: ["workspaces"], summary: "Workspace counts and store status" },
    });

  return new Elysia({ name: "workspaces" }).use(bootstrap).use(scoped);
}
