import type { CollectionTables } from "./tables.ts";
import type { CollectionRecord, RecordChange } from "../../../core/collections/model.ts";
import type {
  RecordImportJob,
  RecordImportOutcome,
  RecordQuery,
  RecordRemoval,
  RecordStore,
  RecordWrite,
  Slice,
} from "../../../core/collections/ports.ts";
import { type AggregateGroup, aggregateInMemory, type CompiledAggregate } from "../../../core/collections/record-aggregate.ts";
import { matches } from "../../../core/collections/record-filter.ts";
import { compareRecords, isAfter } from "../../../core/collections/record-sort.ts";
import { copy, inWorkspace } from "../rows.ts";

export const recordsOf = (t: CollectionTables, ws: string, cid: string) =>
  inWorkspace(t.records, ws).filter((r) => r.collection_id === cid);
export const changesOf = (t: CollectionTables, ws: string, rid: string) =>
  inWorkspace(t.recordChanges, ws).filter((c) => c.record_id === rid);
export class MemoryRecordStore implements RecordStore {
  constructor(private readonly t: CollectionTables) {}

  // Lookups are synchronous so that each method checks and writes with no await between.
  #find(ws: string, cid: string, id: string): CollectionRecord | null {
    const r = this.t.records.get(id);
    return r && r.workspace_id === ws && r.collection_id === cid ? r : null;
  }

  async get(ws: string, cid: string, id: string): Promise<CollectionRecord | null> {
    const r = this.#find(ws, cid, id);
    return r ? copy(r) : null;
  }

  async getMany(ws: string, cid: string, ids: readonly string[]): Promise<CollectionRecord[]> {
    const out: CollectionRecord[] = [];
    for (const id of new Set(ids)) {
      const r = this.t.records.get(id);
      if (r && r.workspace_id === ws && r.collection_id === cid) out.push(copy(r));
    }
    return out;
  }

  async byEntities(ws: string, cid: string, entityIds: readonly string[]): Promise<CollectionRecord[]> {
    const wanted = new Set(entityIds);
    return recordsOf(this.t, ws, cid).filter((r) => r.entity_id !== null && wanted.has(r.entity_id)).map(copy);
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

  /** No rollups in memory: a scan is the reference (ADR 039). */
  async aggregateRollup(): Promise<AggregateGroup[] | null> {
    return null;
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

  /**
   * The batches are read first, each update computed against the record as it is then; the
   * writes are applied together with no await in between, after checking (also synchronously)
   * that the collection and every updated record are still as read: all or nothing.
   */
  async importRecords(ws: string, cid: string, job: RecordImportJob): Promise<RecordImportOutcome> {
    const writes: RecordWrite[] = [];
    let created = 0;
    let unchanged = 0;
    for await (const batch of job.batches) {
      for (const w of batch.creates) writes.push(w);
      created += batch.creates.length;
      for (const u of batch.updates) {
        const cur = this.#find(ws, cid, u.id);
        if (!cur || cur.version !== u.version) return { conflict: u.id, current_version: cur?.version ?? null };
        const w = u.next(copy(cur));
        if (w) writes.push(w);
        else unchanged++;
      }
    }
    const c = this.t.collections.get(cid);
    if (!c || c.workspace_id !== ws) return "collection_not_found";
    if (c.version !== job.collectionVersion) return "collection_changed";
    for (const w of writes) {
      if (w.record.version === 1) continue;
      const cur = this.#find(ws, cid, w.record.id);
      if (!cur || cur.version !== w.record.version - 1) return { conflict: w.record.id, current_version: cur?.version ?? null };
    }
    for (const w of writes) {
      this.t.records.set(w.record.id, copy(w.record));
      this.t.recordChanges.set(w.change.id, copy(w.change));
    }
    return { written: { created, updated: writes.length - created, unchanged } };
  }

  async deletePlan(ws: string, cid: string, id: string): Promise<RecordRemoval | null> {
    return this.#plan(ws, cid, id);
  }

  #plan(ws: string, cid: string, id: string): RecordRemoval | null {
    if (!this.#find(ws, cid, id)) return null;
    const changes = changesOf(this.t, ws, id);
    return { record_id: id, history_entries: changes.length, outcomes: changes.filter((c) => c.outcome !== null).length };
  }

  async delete(
    ws: string,
    cid: string,
    id: string,
    expectedVersion: number | null,
  ): Promise<RecordRemoval | "version_conflict" | "not_found"> {
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
