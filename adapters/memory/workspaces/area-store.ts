import type { WorkspaceTables } from "./tables.ts";
import type { OffsetPage } from "../../../core/kernel/paging.ts";
import type { AreaStore, Listed } from "../../../core/workspaces/ports.ts";
import type { Area } from "../../../core/workspaces/model.ts";
import { byCreated, copy, inWorkspace, page } from "../rows.ts";

export class MemoryAreaStore implements AreaStore {
  constructor(private t: WorkspaceTables) {}

  async list(workspaceId: string, p: OffsetPage): Promise<Listed<Area>> {
    return page(inWorkspace(this.t.areas, workspaceId).sort(byCreated), p.offset, p.limit);
  }

  async get(workspaceId: string, areaId: string): Promise<Area | null> {
    const a = this.t.areas.get(areaId);
    return a && a.workspace_id === workspaceId ? copy(a) : null;
  }

  private nameTaken(area: Area): boolean {
    return inWorkspace(this.t.areas, area.workspace_id).some((a) => a.name === area.name && a.id !== area.id);
  }

  async insert(area: Area): Promise<"ok" | "name_taken"> {
    if (this.nameTaken(area)) return "name_taken";
    this.t.areas.set(area.id, copy(area));
    return "ok";
  }

  async update(area: Area): Promise<"ok" | "name_taken" | "not_found"> {
    if (!(await this.get(area.workspace_id, area.id))) return "not_found";
    if (this.nameTaken(area)) return "name_taken";
    this.t.areas.set(area.id, copy(area));
    return "ok";
  }

  async delete(workspaceId: string, areaId: string): Promise<boolean> {
    if (!(await this.get(workspaceId, areaId))) return false;
    return this.t.areas.delete(areaId);
  }
}
