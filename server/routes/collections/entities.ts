import { Type } from "@sinclair/typebox";
import { EntityView, getEntity, listEntities, upsertEntity, UpsertEntityDto } from "../../../core/collections/mod.ts";
import type { ServerDeps } from "../../deps.ts";
import { authenticated, errors } from "../../http/schemas.ts";
import { EntityListQuery, EntityParams, SlugParams } from "./schemas.ts";
import { workspaceScope } from "../../http/workspace-scope.ts";

const tags = ["entities"];
const doc = (summary: string, description?: string) => ({ ...authenticated, tags, summary, ...(description ? { description } : {}) });
const Upserted = Type.Object({
  entity: EntityView,
  result: Type.Union([Type.Literal("created"), Type.Literal("updated"), Type.Literal("unchanged")]),
  changed_attributes: Type.Array(Type.String(), { description: "Attributes whose value this call changed (on create: every one given)." }),
  name_changed: Type.Boolean(),
});

export function entityRoutes(deps: ServerDeps) {
  const core = deps.core;
  return workspaceScope(deps, "entities")
    .post(
      "/entities",
      async ({ principal, workspace, body, set }) => {
        const out = await upsertEntity(core, principal, workspace, body);
        set.status = out.result === "created" ? 201 : 200;
        return out;
      },
      {
        parse: "json",
        params: SlugParams,
        body: UpsertEntityDto,
        response: { 200: Upserted, 201: Upserted, ...errors(400, 401, 403, 404, 413) },
        detail: doc(
          "Upsert an entity",
          "Idempotent on (`kind`, `dedup_key`), both compared normalised: 201 when it created the entity, 200 when one existed (its name replaced, `attributes` merged; `result` says updated or unchanged and `changed_attributes` which). Concurrent upserts of one pair make one entity. Without `dedup_key` every call creates one.",
        ),
      },
    )
    .get(
      "/entities",
      async ({ workspace, query }) => {
        const { items, has_more } = await listEntities(core, workspace, query);
        return { entities: items, has_more };
      },
      {
        params: SlugParams,
        query: EntityListQuery,
        response: { 200: Type.Object({ entities: Type.Array(EntityView), has_more: Type.Boolean() }), ...errors(400, 401, 404) },
        detail: doc(
          "List entities",
          "Newest first, of one `kind` when given. The next page: `cursor` = the `id` of the last entity of this one.",
        ),
      },
    )
    .get("/entities/:id", ({ workspace, params }) => getEntity(core, workspace, params.id), {
      params: EntityParams,
      response: { 200: EntityView, ...errors(400, 401, 404) },
      detail: doc("Get an entity"),
    });
}
