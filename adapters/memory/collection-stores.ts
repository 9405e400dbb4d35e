import type { Collection, CollectionRecord, Entity, RecordChange } from "../../core/collections/model.ts";
import type {
  CollectionFilter,
  CollectionStore,
  EntityStore,
  IdPage,
  PurgePlan,
  RecordQuery,
  RecordRemoval,
  RecordStore,
  RecordWrite,
  Slice,
} from "../../core/collections/ports.ts";
import { aggregateInMemory, type AggregateGroup, type CompiledAggregate } from "../../core/collections/record-aggregate.ts";
import { matches } from "../../core/collections/record-filter.ts";
import { compareRecords, isAfter } from "../../core/collections/record-sort.ts";
import { copy, inWorkspace, type MemoryTables } from "./tables.ts";

const newestFirst = (a: { id: string }, b: { id: string }) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

function idSlice<T extends { id: string }>(rows: T[], page: IdPage): Slice<T> {
  const after = rows.sort(newestFirst).filter((r) => page.afterId === undefined || r.id < page.afterId);
  return { items: after.slice(0, page.limit).map(copy), has_more: after.length > page.limit };
}

const recordsOf = (t: MemoryTables, ws: string, cid: string) => inWorkspace(t.records, ws).filter((r) => r.collection_id === cid);
const changesOf = (t: MemoryTables, ws: string, rid: string) => inWorkspace(t.recordChanges, ws).filter((c) => c.record_id === rid);

export class MemoryCollectionStore implements CollectionStore {
  constructor(private readonly t: MemoryTables) {}

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

export class MemoryRecordStore implements RecordStore {
  constructor(private readonly t: MemoryTables) {}

  // Lookups are synchronous so that each method checks and writes with no await between.
  #find(ws: string, cid: string, id: string): CollectionRecord | null {
    const r = this.t.records.get(id);
    return r && r.workspace_id === ws && r.collection_id === cid ? r : null;
  }

  async get(ws: string, cid: string, id: string): Promise<CollectionRecord | null> {
    const r = this.#find(ws, cid, id);
    return r ? copy(r) : null;
  }

  async query(ws: string, cid: string, q: RecordQuery): Promise<Slice<CollectionRecord>> {
    const rows = recordsOf(this.t, ws, cid)
      .filter((r) => !q.filter || matches(r as never, q.filter))
      .filter((r) => (q.words ?? []).every((w) => r.search_text.includes(w)))
      .filter((r) => !q.after || isAfter(r, q.after, q.sort))
      .sort((a, b) => compareRecords(a, b, q.sort));
    return { items: rows.slice(0, q.limit).map(copy), has_more: rows.length > q.limit };
  }

  async aggregate(ws: string, cid: string, spec: CompiledAggregate): Promise<AggregateGroup[]> {
    return aggregateInMemory(recordsOf(this.t, ws, cid), spec).slice(0, spec.maxGroups + 1);
  }

  async insert(w: RecordWrite): Promise<"ok" | "collection_not_found"> {
    const c = this.t.collections.get(w.record.collection_id);
    if (!c || c.workspace_id !== w.record.workspace_id) return "collection_not_found";
    this.t.records.set(w.record.id, copy(w.record));
    this.t.recordChanges.set(w.change.id, copy(w.change));
    return "ok";
  }

  async update(w: RecordWrite): Promise<"ok" | "version_conflict" | "not_found"> {
    const cur = this.#find(w.record.workspace_id, w.record.collection_id, w.record.id);
    if (!cur) return "not_found";
    if (cur.version !== w.record.version - 1) return "version_conflict";
    this.t.records.set(w.record.id, copy(w.record));
    this.t.recordChanges.set(w.change.id, copy(w.change));
    return "ok";
  }

  async deletePlan(ws: string, cid: string, id: string): Promise<RecordRemoval | null> {
    return this.#plan(ws, cid, id);
  }

  #plan(ws: string, cid: string, id: string): RecordRemoval | null {
    if (!this.#find(ws, cid, id)) return null;
    const changes = changesOf(this.t, ws, id);
    return { record_id: id, history_entries: changes.length, outcomes: changes.filter((c) => c.outcome !== null).length };
  }

  async delete(ws: string, cid: string, id: string, expectedVersion: number | null): Promise<RecordRemoval | "version_conflict" | "not_found"> {
    const cur = this.#find(ws, cid, id);
    if (!cur) return "not_found";
    if (expectedVersion !== null && cur.version !== expectedVersion) return "version_conflict";
    const plan = this.#plan(ws, cid, id)!;
    for (const c of changesOf(this.t, ws, id)) this.t.recordChanges.delete(c.id);
    this.t.records.delete(id);
    return plan;
  }

  async history(ws: string, cid: string, id: string, limit: number, beforeVersion?: number): Promise<RecordChange[]> {
    return changesOf(this.t, ws, id)
      .filter((c) => c.collection_id === cid && (beforeVersion === undefined || c.version < beforeVersion))
      .sort((a, b) => b.version - a.version)
      .slice(0, limit)
      .map(copy);
  }
}

export class MemoryEntityStore implements EntityStore {
  constructor(private readonly t: MemoryTables) {}

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

  async list(ws: string, kind: string | null, page: IdPage): Promise<Slice<Entity>> {
    return idSlice(inWorkspace(this.t.entities, ws).filter((e) => kind === null || e.kind === kind), page);
  }

  async upsert(fresh: Entity, merge: (existing: Entity) => Entity | null): Promise<{ entity: Entity; created: boolean; previous: Entity | null }> {
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
}
