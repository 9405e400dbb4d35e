import type { WorkspaceCollections } from "./collections.ts";
import type { OffsetPage } from "../../../core/kernel/paging.ts";
import type { Area } from "../../../core/workspaces/model.ts";
import type { AreaStore, Listed } from "../../../core/workspaces/ports.ts";
import { areaDoc, toArea } from "./documents.ts";
import { isDuplicateKey } from "../duplicate-key.ts";
import { listPage } from "../list-page.ts";

export class MongoAreaStore implements AreaStore {
  constructor(private readonly c: WorkspaceCollections) {}

  list(workspaceId: string, page: OffsetPage): Promise<Listed<Area>> {
    return listPage(this.c.areas, { workspace_id: workspaceId }, { created_at: 1, _id: 1 }, page, toArea);
  }

  async get(workspaceId: string, areaId: string): Promise<Area | null> {
    const d = await this.c.areas.findOne({ _id: areaId, workspace_id: workspaceId });
    return d ? toArea(d) : null;
  }

  /** The (workspace_id, name) unique index decides, also between concurrent inserts. */
  async insert(area: Area): Promise<"ok" | "name_taken"> {
    try {
      await this.c.areas.insertOne(areaDoc(area));
      return "ok";
    } catch (e) {
      if (isDuplicateKey(e)) return "name_taken";
      throw e;
    }
  }

  async update(area: Area): Promise<"ok" | "name_taken" | "not_found"> {
    try {
      const r = await this.c.areas.updateOne(
        { _id: area.id, workspace_id: area.workspace_id },
        { $set: { name: area.name, description: area.description, updated_at: area.updated_at } },
      );
      return r.matchedCount === 1 ? "ok" : "not_found";
    } catch (e) {
      // A single-document update: the refusal left the document as it was.
      if (isDuplicateKey(e)) return "name_taken";
      throw e;
    }
  }

  async delete(workspaceId: string, areaId: string): Promise<boolean> {
    const r = await this.c.areas.deleteOne({ _id: areaId, workspace_id: workspaceId });
    return r.deletedCount === 1;
  }
}
