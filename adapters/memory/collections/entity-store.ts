import type { CollectionTables } from "./tables.ts";
import { idSlice } from "./id-page.ts";
import type { Entity } from "../../../core/collections/model.ts";
import type { EntityStore, IdPage, Slice } from "../../../core/collections/ports.ts";
import { copy, inWorkspace } from "../rows.ts";

export class MemoryEntityStore implements EntityStore {
  constructor(private readonly t: CollectionTables) {}

  async get(ws: string, id: string): Promise<Entity | null> {
    const e = this.t.entities.get(id);
    return e && e.workspace_id === ws ? copy(e) : null;
  }

  async getMany(ws: string, ids: readonly string[]): Promise<Entity[]> {
    const out: Entity[] = [];
    for (const id of new Set(ids)) {
      const e = this.t.entities.get(id);
      if (e && e.workspace_id === ws) out.push(copy(e));
    }
    return out;
  }

  async byDedupKeys(ws: string, kind: string, dedupNorms: readonly string[]): Promise<Entity[]> {
    const out: Entity[] = [];
    for (const norm of new Set(dedupNorms)) {
      const id = this.t.entityIdByKey.get(`${ws}:${kind}:${norm}`);
      const e = id === undefined ? undefined : this.t.entities.get(id);
      if (e) out.push(copy(e));
    }
    return out;
  }

  async list(ws: string, kind: string | null, page: IdPage): Promise<Slice<Entity>> {
    return idSlice(inWorkspace(this.t.entities, ws).filter((e) => kind === null || e.kind === kind), page);
  }

  async upsert(
    fresh: Entity,
    merge: (existing: Entity) => Entity | null,
  ): Promise<{ entity: Entity; created: boolean; previous: Entity | null }> {
    const key = fresh.dedup_norm === null ? null : `${fresh.workspace_id}:${fresh.kind}:${fresh.dedup_norm}`;
    const existingId = key === null ? undefined : this.t.entityIdByKey.get(key);
    const existing = existingId === undefined ? undefined : this.t.entities.get(existingId);
    if (!existing) {
      this.t.entities.set(fresh.id, copy(fresh));
      if (key !== null) this.t.entityIdByKey.set(key, fresh.id);
      return { entity: copy(fresh), created: true, previous: null };
    }
    const next = merge(copy(existing));
    if (next) this.t.entities.set(next.id, copy(next));
    return { entity: copy(next ?? existing), created: false, previous: copy(existing) };
  }

  async update(next: Entity): Promise<"ok" | "version_conflict" | "not_found"> {
    const cur = this.t.entities.get(next.id);
    if (!cur || cur.workspace_id !== next.workspace_id) return "not_found";
    if (cur.version !== next.version - 1) return "version_conflict";
    const n = copy(next);
    this.t.entities.set(cur.id, { ...cur, name: n.name, attributes: n.attributes, version: n.version, updated_at: n.updated_at });
    return "ok";
  }
}
