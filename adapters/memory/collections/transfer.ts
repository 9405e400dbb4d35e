import type { Collection, Entity, RecordChange } from "../../../core/collections/model.ts";
import { COLLECTION_TRANSFER_KINDS as K, recordFromTransfer, recordTransferDoc } from "../../../core/collections/transfer.ts";
import type { TransferDoc, TransferKind } from "../../../core/kernel/store-transfer.ts";
import { copy } from "../rows.ts";
import { memoryTransferKind } from "../transfer-rows.ts";
import type { CollectionTables } from "./tables.ts";

const asDoc = <T>(row: T) => copy(row) as unknown as TransferDoc;

/**
 * Collections' kinds over the memory tables (core/collections/transfer.ts). A write keeps what
 * the stores' own inserts keep: the entity key index, a record's search text; a record whose
 * collection is not there, like the store's insert, is not written.
 */
export function memoryCollectionTransfer(t: CollectionTables): TransferKind[] {
  return [
    memoryTransferKind(K.collections, () => [...t.collections.values()].map(asDoc), () => (d) => {
      const c = d as unknown as Collection;
      if (t.collections.has(c.id)) return false;
      t.collections.set(c.id, c);
      return true;
    }),
    memoryTransferKind(K.entities, () => [...t.entities.values()].map(asDoc), () => (d) => {
      const e = d as unknown as Entity;
      const slot = e.dedup_norm === null ? null : `${e.workspace_id}:${e.kind}:${e.dedup_norm}`;
      if (t.entities.has(e.id) || (slot !== null && t.entityIdByKey.has(slot))) return false;
      t.entities.set(e.id, e);
      if (slot !== null) t.entityIdByKey.set(slot, e.id);
      return true;
    }),
    memoryTransferKind(K.records, () => [...t.records.values()].map((r) => recordTransferDoc(copy(r))), () => (d) => {
      const r = recordFromTransfer(d);
      const c = t.collections.get(r.collection_id);
      if (t.records.has(r.id) || !c || c.workspace_id !== r.workspace_id) return false;
      t.records.set(r.id, r);
      return true;
    }),
    memoryTransferKind(K.recordChanges, () => [...t.recordChanges.values()].map(asDoc), () => {
      const slot = (c: RecordChange) => `${c.workspace_id}:${c.record_id}:${c.version}`;
      const taken = new Set([...t.recordChanges.values()].map(slot));
      return (d) => {
        const c = d as unknown as RecordChange;
        if (t.recordChanges.has(c.id) || taken.has(slot(c))) return false;
        t.recordChanges.set(c.id, c);
        taken.add(slot(c));
        return true;
      };
    }),
  ];
}
