import { Type } from "@sinclair/typebox";
import {
  CheckoutSessionDto,
  CheckoutSessionView,
  createCheckoutSession,
  createPortalSession,
  PortalSessionDto,
  PortalSessionView,
} from "../../../core/billing/mod.ts";
import { checkIdempotencyKey, idempotent } from "../../../core/credits/mod.ts";
import { SlugSchema } from "../../../core/workspaces/mod.ts";
import type { ServerDeps } from "../../deps.ts";
import { IdempotencyHeaders } from "../../http/idempotent-route.ts";
import { authenticated, errors, strict } from "../../http/schemas.ts";
import { workspaceScope } from "../../http/workspace-scope.ts";

const tags = ["billing"];
const SlugParams = Type.Object({ slug: SlugSchema }, strict);

/** Checkout and the billing portal (docs/decisions/033-billing-provider-and-webhook.md). */
export function billingRoutes(deps: ServerDeps) {
  const core = deps.core;
  return workspaceScope(deps, "billing")
    .post(
      "/billing/checkout-session",
      async ({ principal, workspace, body, request, set }) => {
        const key = checkIdempotencyKey(request.headers.get("idempotency-key"));
        const answer = await idempotent(
          core,
          { workspace_id: workspace.id, scope: "billing.checkout", key, request: body },
          async () => ({ status: 201, body: await createCheckoutSession(core, principal, workspace, body, key) }),
        );
        set.status = answer.status;
        if (answer.replayed) set.headers["idempotent-replayed"] = "true";
        return answer.body;
      },
      {
        parse: "json",
        params: SlugParams,
        headers: IdempotencyHeaders,
        body: CheckoutSessionDto,
        response: { 201: CheckoutSessionView, ...errors(400, 401, 403, 404, 409, 413, 503) },
        detail: {
          ...authenticated,
          tags,
          summary: "Open a Checkout session (owner/admin)",
          description:
            'Exactly one of `plan` (`team` or `business`, `interval` `month` (default) or `year`: €49 or €249 a month, a year costs 10 months) or `credits` (100 to 1,000,000 radar credits at €0.05 each). Answers the provider\'s session: send the payer to `url` before `expires_at`. The session carries `client_reference_id` = the workspace id and `metadata` `{workspace_id, kind: "subscription", plan}` (also on the subscription) or `{workspace_id, kind: "credits", credits}`; the billing webhook applies the purchase when it is paid. The workspace\'s provider customer is created on first use (one per workspace). `Idempotency-Key`: the first answer is replayed for the same key and body. A workspace with a live subscription changes it in the portal (409 `CONFLICT`); an enterprise workspace cannot subscribe (409 `PLAN_CHANGE_NOT_ALLOWED`). Without a billing provider: 503 `BILLING_NOT_CONFIGURED` (after the credential, role and body checks).',
        },
      },
    )
    .post(
      "/billing/portal-session",
      async ({ principal, workspace, body, set }) => {
        set.status = 201;
        return createPortalSession(core, principal, workspace, body ?? {});
      },
      {
        parse: "json",
        params: SlugParams,
        body: Type.Optional(PortalSessionDto),
        response: { 201: PortalSessionView, ...errors(400, 401, 403, 404, 409, 413, 503) },
        detail: {
          ...authenticated,
          tags,
          summary: "Open the billing portal (owner/admin)",
          description:
            "The provider's self-service portal for the workspace's customer (payment methods, invoices, plan changes, cancellation); optional `return_url`. Before any checkout: 409 `NO_BILLING_ACCOUNT`. Without a billing provider: 503 `BILLING_NOT_CONFIGURED` (after the credential, role and body checks).",
        },
      },
    );
}
