import { Type } from "@sinclair/typebox";
import {
  AcceptedOfferView,
  acceptOffer,
  BillingOfferPage,
  OFFER_STATUSES,
  type OfferStatus,
  workspaceOffers,
} from "../../../core/offers/mod.ts";
import { DEFAULT_LIMIT, parseOffsetPage, UUID_PATTERN } from "../../../core/kernel/mod.ts";
import { SlugSchema } from "../../../core/workspaces/mod.ts";
import type { ServerDeps } from "../../deps.ts";
import { enumParam, limitParam, offsetParam } from "../../http/query-schemas.ts";
import { authenticated, errors, strict } from "../../http/schemas.ts";
import { workspaceScope } from "../../http/workspace-scope.ts";

const tags = ["billing"];
const SlugParams = Type.Object({ slug: SlugSchema }, strict);
const OfferParams = Type.Object({
  slug: SlugSchema,
  id: Type.String({ format: "uuid", pattern: UUID_PATTERN, description: "The offer's id." }),
}, strict);
const OffersQuery = Type.Object({
  limit: limitParam(DEFAULT_LIMIT),
  offset: offsetParam,
  status: enumParam(OFFER_STATUSES, "Only offers in this state (`expired`: open and past `expires_at`)."),
}, strict);

/** A workspace's side of the operator's offers: read them (owner/admin), accept one (owner). */
export function billingOfferRoutes(deps: ServerDeps) {
  const core = deps.core;
  return workspaceScope(deps, "billing-offers")
    .get(
      "/billing/offers",
      ({ principal, workspace, query }) =>
        workspaceOffers(core, principal, workspace, { status: query.status as OfferStatus | undefined }, parseOffsetPage(query)),
      {
        params: SlugParams,
        query: OffersQuery,
        response: { 200: BillingOfferPage, ...errors(400, 401, 403, 404) },
        detail: {
          ...authenticated,
          tags,
          summary: "The workspace's billing offers (owner/admin)",
          description:
            "Offers the platform operator made to this workspace, newest first, by `status` (`expired`: open and past `expires_at`). Offset paging: `limit` 1–200 (default 50), `offset`.",
        },
      },
    )
    .post("/billing/offers/:id/accept", async ({ principal, workspace, params, set }) => {
      set.status = 201;
      return await acceptOffer(core, principal, workspace, params.id);
    }, {
      params: OfferParams,
      response: { 201: AcceptedOfferView, ...errors(400, 401, 403, 404, 409) },
      detail: {
        ...authenticated,
        tags,
        summary: "Accept an open offer (owner)",
        description:
          "The offer becomes `accepted`: its plan and limits apply at once, its `radar_credits` are granted once (and the plan's included credits for the contract's first month), and the contract is kept (invoiced outside the service); `workspace.plan_changed` with `source: \"offer\"`. Anything but an open offer (accepted, cancelled, expired, superseded) is 409 `CONFLICT` with its `status`. Owners only (403 otherwise); another workspace's offer is 404.",
      },
    });
}
