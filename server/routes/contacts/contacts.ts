import { Type } from "@sinclair/typebox";
import {
  ContactQuote,
  EnrichContactsDto,
  quoteContacts,
  unlockContacts,
  UnlockContactsDto,
  UnlockedContacts,
} from "../../../core/contacts/mod.ts";
import { SlugSchema } from "../../../core/workspaces/mod.ts";
import type { ServerDeps } from "../../deps.ts";
import { IdempotencyHeaders, moneyMoving } from "../../http/idempotent-route.ts";
import { authenticated, errors, strict } from "../../http/schemas.ts";
import { workspaceScope } from "../../http/workspace-scope.ts";

const tags = ["radar"];
const Params = Type.Object({ slug: SlugSchema, collectionId: Type.String({ description: "The collection's id (UUID)." }) }, strict);

/** Contact paths of a collection's records: quoted for free, unlocked for credits (ADR 025). */
export function radarContactRoutes(deps: ServerDeps) {
  const core = deps.core;
  return workspaceScope(deps, "radar-contacts")
    .post("/radar/collections/:collectionId/contact-paths/quote", async ({ workspace, params, body, set }) => {
      set.status = 201;
      set.headers["x-credits-charged"] = "0";
      return await quoteContacts(core, workspace, params.collectionId, body);
    }, {
      parse: "json",
      params: Params,
      body: EnrichContactsDto,
      response: { 201: ContactQuote, ...errors(400, 401, 404, 413) },
      detail: {
        ...authenticated,
        tags,
        summary: "Quote contact paths",
        description:
          "Per record and kind: `available` (with its price in `credits`, charged only if unlocking finds it), `unlocked` (paid for before, in any collection: free) or `unavailable` (the record is no person radar knows, or an earlier lookup found nothing). `total_credits`: the most unlocking would charge, each entity and kind once. Charges nothing.",
      },
    })
    .post(
      "/radar/collections/:collectionId/contact-paths/unlock",
      ({ principal, workspace, params, body, request, set }) =>
        moneyMoving(
          core,
          request,
          set,
          { workspace_id: workspace.id, scope: "radar.unlock", request: { collection: params.collectionId, body } },
          () => unlockContacts(core, principal, workspace, params.collectionId, body),
          (a) => a.charged_credits,
        ),
      {
        parse: "json",
        params: Params,
        headers: IdempotencyHeaders,
        body: UnlockContactsDto,
        response: { 201: UnlockedContacts, ...errors(400, 401, 402, 403, 404, 409, 413) },
        detail: {
          ...authenticated,
          tags,
          summary: "Unlock contact paths",
          description:
            "Charged once per person and kind, forever, across collections: per item `status` `unlocked` (charged its price now), `already_unlocked` (paid before, or by a concurrent request or another record of the same person in this one: free, with its `value`) or `unavailable` (free). The total of what could be found is held first: short of credits is a 402 with nothing charged; the hits are captured and the rest released. Values are written to every record of the request whose person has them unlocked, `already_unlocked` items included (`email`, `phone`, `linkedin_url`, where its schema admits them; a new version in the record's history), and to the person's entity; the records this request pays for in the same write as the charge. `Idempotency-Key` replays; `X-Credits-Charged` says what this answer charged. A request still waiting on the directory when its lease (`RADAR_UNLOCK_LEASE_MS`, 60 s) ends loses its hold to the sweep and answers 409 `CONFLICT` (`lease_ms`, `charged_credits`): nothing is charged for what it did not settle; send it again.",
        },
      },
    );
}
