import { Type } from "@sinclair/typebox";
import {
  Area,
  createArea,
  CreateAreaDto,
  deleteArea,
  IdSchema,
  listAreas,
  SlugSchema,
  updateArea,
  UpdateAreaDto,
} from "../../../core/workspaces/mod.ts";
import type { ServerDeps } from "../../deps.ts";
import { authenticated, Deleted, errors, pageOf, PageQuery, strict } from "../../http/schemas.ts";
import { workspaceScope } from "../../http/workspace-scope.ts";

const tags = ["areas"];
const SlugParams = Type.Object({ slug: SlugSchema }, strict);
const AreaParams = Type.Object({ slug: SlugSchema, id: IdSchema }, strict);

export function areaRoutes(deps: ServerDeps) {
  const core = deps.core;
  return workspaceScope(deps, "areas")
    .get(
      "/areas",
      async ({ workspace, query }) => {
        const { items, total, has_more } = await listAreas(core, workspace, query);
        return { areas: items, total, has_more };
      },
      {
        params: SlugParams,
        query: PageQuery,
        response: { 200: pageOf("areas", Area), ...errors(400, 401, 404) },
        detail: { ...authenticated, tags, summary: "List areas", description: "Oldest first." },
      },
    )
    .post(
      "/areas",
      async ({ principal, workspace, body, set }) => {
        const area = await createArea(core, principal, workspace, body);
        set.status = 201;
        return area;
      },
      {
        parse: "json",
        params: SlugParams,
        body: CreateAreaDto,
        response: { 201: Area, ...errors(400, 401, 403, 404, 409, 413) },
        detail: { ...authenticated, tags, summary: "Create an area (owner/admin)", description: "Names are unique in a workspace (409)." },
      },
    )
    .patch("/areas/:id", ({ principal, workspace, params, body }) => updateArea(core, principal, workspace, params.id, body), {
      parse: "json",
      params: AreaParams,
      body: UpdateAreaDto,
      response: { 200: Area, ...errors(400, 401, 403, 404, 409, 413) },
      detail: { ...authenticated, tags, summary: "Update an area (owner/admin)", description: "`description: null` clears it." },
    })
    .delete(
      "/areas/:id",
      async ({ principal, workspace, params }) => {
        await deleteArea(core, principal, workspace, params.id);
        return { id: params.id, deleted: true as const };
      },
      {
        params: AreaParams,
        response: { 200: Deleted, ...errors(400, 401, 403, 404) },
        detail: { ...authenticated, tags, summary: "Delete an area (owner/admin)" },
      },
    );
}
