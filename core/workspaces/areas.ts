import { type Principal } from "../access/mod.ts";
import { assertCanManageWorkspace } from "./policy.ts";
import type { WorkspaceDeps } from "./ports.ts";
import { emit } from "../events/mod.ts";
import { conflict, notFound } from "../kernel/errors.ts";
import { uuidv7 } from "../kernel/ids.ts";
import { type OffsetQuery, type OffsetResult, parseOffsetPage, toOffsetResult } from "../kernel/paging.ts";
import type { Area, Workspace } from "./model.ts";
import type { CreateAreaDto, UpdateAreaDto } from "./dto.ts";

const nameTaken = (name: string) => conflict(`Area name is taken: ${name}`);

export async function listAreas(deps: WorkspaceDeps, ws: Workspace, query: OffsetQuery = {}): Promise<OffsetResult<Area>> {
  const page = parseOffsetPage(query);
  const { items, total } = await deps.stores.areas.list(ws.id, page);
  return toOffsetResult(items, total, page);
}

/** Areas shape how the whole workspace is organised, so changing them takes owner/admin. */
export async function createArea(deps: WorkspaceDeps, p: Principal, ws: Workspace, dto: CreateAreaDto): Promise<Area> {
  assertCanManageWorkspace(p, "create an area");
  const now = deps.clock.now().toISOString();
  const area: Area = {
    id: uuidv7(),
    workspace_id: ws.id,
    name: dto.name,
    description: dto.description ?? null,
    created_at: now,
    updated_at: now,
  };
  if ((await deps.stores.areas.insert(area)) === "name_taken") throw nameTaken(dto.name);
  await emit(deps, ws.id, "area.created", p, { area_id: area.id, name: area.name });
  return area;
}

export async function updateArea(
  deps: WorkspaceDeps,
  p: Principal,
  ws: Workspace,
  areaId: string,
  dto: UpdateAreaDto,
): Promise<Area> {
  assertCanManageWorkspace(p, "update an area");
  const current = await deps.stores.areas.get(ws.id, areaId);
  if (!current) throw notFound("Area");
  const next: Area = {
    ...current,
    name: dto.name ?? current.name,
    description: dto.description === undefined ? current.description : dto.description,
    updated_at: deps.clock.now().toISOString(),
  };
  const result = await deps.stores.areas.update(next);
  if (result === "name_taken") throw nameTaken(next.name);
  if (result === "not_found") throw notFound("Area");
  await emit(deps, ws.id, "area.updated", p, { area_id: next.id, name: next.name });
  return next;
}

export async function deleteArea(deps: WorkspaceDeps, p: Principal, ws: Workspace, areaId: string): Promise<void> {
  assertCanManageWorkspace(p, "delete an area");
  if (!(await deps.stores.areas.delete(ws.id, areaId))) throw notFound("Area");
  await emit(deps, ws.id, "area.deleted", p, { area_id: areaId });
}
