import type { CollectionTables } from "./tables.ts";
import { idSlice } from "./id-page.ts";
import { recordsOf } from "./record-store.ts";
import type { Collection } from "../../../core/collections/model.ts";
import type { CollectionFilter, CollectionStore, IdPage, PurgePlan, Slice } from "../../../core/collections/ports.ts";
import { copy, inWorkspace } from "../rows.ts";

export class MemoryCollectionStore implements CollectionStore {
  constructor(private readonly t: CollectionTables) {}

  #find(ws: string, id: string): Collection | null {
    const c = this.t.collections.get(id);
    return c && c.workspace_id === ws ? c : null;
  }

  async get(ws: string, id: string): Promise<Collection | null> {
    const c = this.#find(ws, id);
    return c ? copy(c) : null;
  }

  async list(ws: string, f: CollectionFilter, page: IdPage): Promise<Slice<Collection>> {
    const rows = inWorkspace(this.t.collections, ws).filter(
      (c) =>
        f.statuses.includes(c.status) &&
        (f.ownerId === undefined || c.owner_identity_id === f.ownerId) &&
        (f.updatedAfter === undefined || c.updated_at > f.updatedAfter) &&
        (f.nameWords ?? []).every((w) => c.name.toLowerCase().includes(w)),
    );
    return idSlice(rows, page);
  }

  async insert(c: Collection): Promise<void> {
    this.t.collections.set(c.id, copy(c));
  }

  async update(c: Collection): Promise<"ok" | "version_conflict" | "not_found"> {
    const cur = this.t.collections.get(c.id);
    if (!cur || cur.workspace_id !== c.workspace_id) return "not_found";
    if (cur.version !== c.version - 1) return "version_conflict";
    this.t.collections.set(c.id, copy(c));
    return "ok";
  }

  async purgePlan(ws: string, id: string): Promise<PurgePlan | null> {
    return this.#plan(ws, id);
  }

  #plan(ws: string, id: string): PurgePlan | null {
    if (!this.#find(ws, id)) return null;
    const records = recordsOf(this.t, ws, id);
    const changes = inWorkspace(this.t.recordChanges, ws).filter((c) => c.collection_id === id);
    return {
      collection_id: id,
      records: records.length,
      history_entries: changes.length,
      outcomes: changes.filter((c) => c.outcome !== null).length,
      entity_links: records.filter((r) => r.entity_id !== null).length,
    };
  }

  async purge(ws: string, id: string, expectedVersion: number): Promise<PurgePlan | "version_conflict" | "not_found"> {
    const c = this.#find(ws, id);
    if (!c) return "not_found";
    if (c.version !== expectedVersion) return "version_conflict";
    const plan = this.#plan(ws, id)!;
    for (const r of recordsOf(this.t, ws, id)) this.t.records.delete(r.id);
    for (const ch of inWorkspace(this.t.recordChanges, ws)) if (ch.collection_id === id) this.t.recordChanges.delete(ch.id);
    this.t.collections.delete(id);
    return plan;
  }
}
