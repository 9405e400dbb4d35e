import { Type } from "@sinclair/typebox";
import { Elysia } from "elysia";
import {
  BillingOfferPage,
  BillingOfferView,
  cancelOffer,
  CreateBillingOfferDto,
  createOffer,
  endEnterprisePlan,
  EnterprisePlanDto,
  EnterprisePlanView,
  OFFER_STATUSES,
  type OfferStatus,
  PlanList,
  planList,
  platformOffer,
  platformOffers,
  PlatformWorkspacePage,
  platformWorkspaces,
  ReissueBillingOfferDto,
  reissueOffer,
  setEnterprisePlan,
} from "../../../core/offers/mod.ts";
import { PLATFORM_OPERATOR } from "../../../core/credits/mod.ts";
import { DEFAULT_LIMIT, notFound, parseOffsetPage, UUID_PATTERN } from "../../../core/kernel/mod.ts";
import { type Plan, PLANS } from "../../../core/workspaces/mod.ts";
import type { ServerDeps } from "../../deps.ts";
import { requirePlatformAdmin } from "../../http/platform-operator.ts";
import { enumParam, limitParam, offsetParam, uuidParam } from "../../http/query-schemas.ts";
import { errors, operatorKey, strict } from "../../http/schemas.ts";

const tags = ["platform"];
const Uuid = (description: string) => Type.String({ format: "uuid", pattern: UUID_PATTERN, description });
const OfferParams = Type.Object({ id: Uuid("The offer's id.") }, strict);
const WorkspaceParams = Type.Object({ workspaceId: Uuid("The workspace's id.") }, strict);
const WorkspacesQuery = Type.Object({
  limit: limitParam(DEFAULT_LIMIT),
  offset: offsetParam,
  q: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: "Part of the slug or name (case-insensitive)." })),
  plan: enumParam(PLANS, "Only workspaces on this plan."),
}, strict);
const OffersQuery = Type.Object({
  limit: limitParam(DEFAULT_LIMIT),
  offset: offsetParam,
  workspace_id: uuidParam("Only this workspace's offers."),
  status: enumParam(OFFER_STATUSES, "Only offers in this state (`expired`: open and past `expires_at`)."),
}, strict);
const operator =
  "Platform operator only: `PLATFORM_ADMIN_KEY` in `x-api-key` (or as a bearer token). No or a wrong key is 401; a workspace's key 403, as is every key while no operator key is configured.";

/**
 * The platform operator's billing administration (docs/decisions/034-offers-and-enterprise.md): workspaces with usage, the plan catalogue,
 * offers and enterprise contracts. Credentials are checked before anything else.
 */
/** The operator's scope: a derive runs before validation, so an anonymous caller learns nothing of the bodies. */
function platformScope(deps: ServerDeps) {
  return new Elysia({ name: "platform-billing", prefix: "/platform/billing" })
    .derive(async ({ request, set }) => {
      await requirePlatformAdmin(deps, request.headers, set.headers);
      return {};
    });
}

type PlatformScope = ReturnType<typeof platformScope>;

export function platformBillingRoutes(deps: ServerDeps) {
  const core = deps.core;
  const routes = platformScope(deps);
  routes
    .get(
      "/workspaces",
      ({ query }) =>
        platformWorkspaces(core, PLATFORM_OPERATOR, { q: query.q, plan: query.plan as Plan | undefined }, parseOffsetPage(query)),
      {
        query: WorkspacesQuery,
        response: { 200: PlatformWorkspacePage, ...errors(400, 401, 403) },
        detail: {
          ...operatorKey,
          tags,
          summary: "List workspaces with plan, billing and usage (operator)",
          description:
            `Newest first. \`q\` matches the slug or name (case-insensitive), \`plan\` filters. Each workspace has its plan, billing account, usage against its limits (an enterprise contract's own limits), the kinds over them, its contract and whether its term has ended (\`renewal_due\`). Offset paging: \`limit\` 1–200 (default 50), \`offset\`. ${operator}`,
        },
      },
    )
    .get("/plans", () => planList(), {
      response: { 200: PlanList, ...errors(401, 403) },
      detail: {
        ...operatorKey,
        tags,
        summary: "The plan catalogue (operator)",
        description:
          `Every plan with its name, whether owners choose it themselves, its price in euro cents per month and per year (a year costs ten months; null: by contract) and its limits (null: unlimited). ${operator}`,
      },
    });
  offerRoutes(routes, core);
  enterpriseRoutes(routes, core);
  return routes;
}

/** Offers: made, listed, read, cancelled and reissued by the operator. */
function offerRoutes(r: PlatformScope, core: ServerDeps["core"]): void {
  r
    .post("/offers", async ({ body, set }) => {
      set.status = 201;
      return await createOffer(core, PLATFORM_OPERATOR, body);
    }, {
      parse: "json",
      body: CreateBillingOfferDto,
      response: { 201: BillingOfferView, ...errors(400, 401, 403, 404, 413) },
      detail: {
        ...operatorKey,
        tags,
        summary: "Issue an offer to a workspace (operator)",
        description:
          `Issued \`open\` (no draft), \`revision\` 1. \`limits\` only with plan \`enterprise\` (unset ones unlimited, \`radar_credits_monthly\` 0). \`price.amount\` in minor units (euro cents) per \`interval\`; \`term_months\` 1–60; \`radar_credits\` are granted once on acceptance; \`expires_at\` within the next 365 days, default 30 days. The workspace's owners are mailed (list \`billing\`). Unknown workspace: 404. ${operator}`,
      },
    })
    .get(
      "/offers",
      ({ query }) =>
        platformOffers(
          core,
          PLATFORM_OPERATOR,
          { workspace_id: query.workspace_id, status: query.status as OfferStatus | undefined },
          parseOffsetPage(query),
        ),
      {
        query: OffersQuery,
        response: { 200: BillingOfferPage, ...errors(400, 401, 403) },
        detail: {
          ...operatorKey,
          tags,
          summary: "List offers (operator)",
          description:
            `Newest first, by \`workspace_id\` and \`status\`. Offset paging: \`limit\` 1–200 (default 50), \`offset\`. ${operator}`,
        },
      },
    )
    .get("/offers/:id", ({ params }) => platformOffer(core, PLATFORM_OPERATOR, params.id), {
      params: OfferParams,
      response: { 200: BillingOfferView, ...errors(400, 401, 403, 404) },
      detail: {
        ...operatorKey,
        tags,
        summary: "Read an offer (operator)",
        description:
          `Its terms, \`status\` (\`expired\`: open and past \`expires_at\`), \`revision\`, \`supersedes\`, \`superseded_by\` and timestamps. ${operator}`,
      },
    })
    .post("/offers/:id/cancel", async ({ params, set }) => {
      set.status = 201;
      return await cancelOffer(core, PLATFORM_OPERATOR, params.id);
    }, {
      params: OfferParams,
      response: { 201: BillingOfferView, ...errors(400, 401, 403, 404, 409) },
      detail: {
        ...operatorKey,
        tags,
        summary: "Cancel an open offer (operator)",
        description:
          `The offer becomes \`cancelled\`. From any other state (\`expired\` included) 409 \`CONFLICT\` with its \`status\`. ${operator}`,
      },
    })
    .post("/offers/:id/reissue", async ({ params, body, set }) => {
      set.status = 201;
      return await reissueOffer(core, PLATFORM_OPERATOR, params.id, body ?? {});
    }, {
      parse: "json",
      params: OfferParams,
      body: ReissueBillingOfferDto,
      response: { 201: BillingOfferView, ...errors(400, 401, 403, 404, 409, 413) },
      detail: {
        ...operatorKey,
        tags,
        summary: "Reissue an open or expired offer with new terms (operator)",
        description:
          `Answers a new \`open\` offer, \`revision\` + 1, \`supersedes\` the old one; atomically the old one becomes \`superseded\` with \`superseded_by\` (of two concurrent reissues one is 201, the other 409). The body takes the create fields but \`workspace_id\`: left out, a term carries over, except \`expires_at\` (30 days from now unless given); a plan other than enterprise drops carried limits. Accepted, cancelled or superseded offers: 409 \`CONFLICT\`. The owners are mailed. ${operator}`,
      },
    });
}

/** A workspace's Enterprise plan, set and ended by the operator. */
function enterpriseRoutes(r: PlatformScope, core: ServerDeps["core"]): void {
  const workspaceOf = async (id: string) => {
    const ws = await core.stores.workspaces.getById(id);
    if (!ws) throw notFound("Workspace");
    return ws;
  };
  r
    .post("/workspaces/:workspaceId/enterprise", async ({ params, body, set }) => {
      set.status = 201;
      return await setEnterprisePlan(core, PLATFORM_OPERATOR, await workspaceOf(params.workspaceId), body);
    }, {
      parse: "json",
      params: WorkspaceParams,
      body: EnterprisePlanDto,
      response: { 201: EnterprisePlanView, ...errors(400, 401, 403, 404, 413) },
      detail: {
        ...operatorKey,
        tags,
        summary: "Set an enterprise contract (operator)",
        description:
          `Plan \`enterprise\` with the contract's \`limits\` at once (unset ones unlimited, \`radar_credits_monthly\` 0), its included credits granted for the contract's first month. Setting it again replaces the contract (a new term from now). After \`term_months\` the plan stays and the workspace is listed \`renewal_due\`. Publishes \`workspace.plan_changed\` (\`source: "operator"\`) when the plan changes. ${operator}`,
      },
    })
    .delete(
      "/workspaces/:workspaceId/enterprise",
      async ({ params }) => endEnterprisePlan(core, PLATFORM_OPERATOR, await workspaceOf(params.workspaceId)),
      {
        params: WorkspaceParams,
        response: { 200: EnterprisePlanView, ...errors(400, 401, 403, 404, 409) },
        detail: {
          ...operatorKey,
          tags,
          summary: "End an enterprise contract (operator)",
          description:
            `The workspace returns to \`free\` (nothing is deleted: kinds over the free limits show in \`over_limit\`), its contract dropped; \`workspace.plan_changed\` with \`source: "operator"\`. A workspace not on enterprise: 409 \`CONFLICT\`. ${operator}`,
        },
      },
    );
}
