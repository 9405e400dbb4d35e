import { Type } from "@sinclair/typebox";
import { Elysia } from "elysia";
import {
  checkIdempotencyKey,
  creditAccount,
  creditHistory,
  grantCredits,
  GrantCreditsDto,
  GrantResult,
  IDEMPOTENCY_KEY_MAX,
  idempotent,
  LEDGER_ENTRY_TYPES,
  LedgerPage,
  PLATFORM_OPERATOR,
} from "../../../core/credits/mod.ts";
import { DEFAULT_LIMIT } from "../../../core/kernel/mod.ts";
import { DEFAULT_PRICES, RadarCredits } from "../../../core/contacts/mod.ts";
import { SlugSchema } from "../../../core/workspaces/mod.ts";
import type { ServerDeps } from "../../deps.ts";
import { requirePlatformOperator } from "../../http/platform-operator.ts";
import { enumParam, limitParam, uuidParam } from "../../http/query-schemas.ts";
import { authenticated, errors, operatorKey, strict } from "../../http/schemas.ts";
import { workspaceScope } from "../../http/workspace-scope.ts";

const tags = ["credits"];
const SlugParams = Type.Object({ slug: SlugSchema }, strict);
const HistoryQuery = Type.Object(
  {
    limit: limitParam(DEFAULT_LIMIT),
    cursor: Type.Optional(
      Type.String({
        pattern: "^[A-Za-z0-9_-]{1,2048}$",
        description: "`nextCursor` of the previous page of this same listing (opaque; one issued for another filter is a 400).",
      }),
    ),
    type: enumParam(LEDGER_ENTRY_TYPES, "Only entries of this type."),
    run_id: uuidParam("Only entries of this radar run."),
  },
  strict,
);
const GrantHeaders = Type.Object({
  "idempotency-key": Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: IDEMPOTENCY_KEY_MAX,
      description:
        "Makes the grant safe to retry: the first answer is kept 24 hours and replayed for the same key and body (`Idempotent-Replayed: true`); another body is a 409 `IDEMPOTENCY_KEY_REUSED`.",
    }),
  ),
});

export function creditRoutes(deps: ServerDeps) {
  const core = deps.core;
  const prices = deps.config.radarPrices ?? DEFAULT_PRICES;
  const reads = workspaceScope(deps, "credits")
    .get(
      "/radar/credits",
      async ({ principal, workspace }) => ({ ...(await creditAccount(core, principal, workspace)), prices }),
      {
        params: SlugParams,
        response: { 200: RadarCredits, ...errors(400, 401, 404) },
        detail: {
          ...authenticated,
          tags,
          summary: "Credit balance and prices",
          description:
            "`available` = `balance` − `held` (credits held by running work). `prices`: what radar charges per unit, in credits.",
        },
      },
    )
    .get("/radar/credits/history", ({ principal, workspace, query }) => creditHistory(core, principal, workspace, query), {
      params: SlugParams,
      query: HistoryQuery,
      response: { 200: LedgerPage, ...errors(400, 401, 404) },
      detail: {
        ...authenticated,
        tags,
        summary: "Credit ledger",
        description:
          "Newest first. Each entry's `amount` and `held` are signed changes of the balance and of the held credits, with the running totals after it. Keyset paging: `limit` (1–200, default 50) and `cursor` (the previous page's `nextCursor`).",
      },
    });

  // The grant is the platform operator's (PLATFORM_ADMIN_KEY), not a workspace member's: its own
  // chain, credentials still checked before the body.
  const grant = new Elysia({ name: "credits-grant", prefix: "/workspaces/:slug" })
    .derive(async ({ request, params, set }) => ({
      workspace: await requirePlatformOperator(deps, request.headers, (params as { slug: string }).slug, set.headers),
    }))
    .post(
      "/radar/credits/grant",
      async ({ workspace, body, request, set }) => {
        const key = checkIdempotencyKey(request.headers.get("idempotency-key"));
        const answer = await idempotent(
          core,
          { workspace_id: workspace.id, scope: "credits.grant", key, request: body },
          async () => ({ status: 201, body: await grantCredits(core, PLATFORM_OPERATOR, workspace, body, { idempotencyKey: key }) }),
        );
        set.status = answer.status;
        // A grant charges nothing: money-moving answers all say what they charged.
        set.headers["x-credits-charged"] = "0";
        if (answer.replayed) set.headers["idempotent-replayed"] = "true";
        return answer.body;
      },
      {
        parse: "json",
        params: SlugParams,
        headers: GrantHeaders,
        body: GrantCreditsDto,
        response: { 201: GrantResult, ...errors(400, 401, 403, 404, 409, 413) },
        detail: {
          ...operatorKey,
          tags,
          summary: "Grant credits (platform operator)",
          description:
            "Only the platform operator's key (`PLATFORM_ADMIN_KEY` in `x-api-key`) may grant: workspace keys, owners' included, are 403 `FORBIDDEN`, and so is everyone while no operator key is configured. Answers `X-Credits-Charged: 0`.",
        },
      },
    );
  return new Elysia({ name: "credits" }).use(reads).use(grant);
}
