import type { Collection, Entity, RecordChange } from "../../../core/collections/model.ts";
import { COLLECTION_TRANSFER_KINDS as K, recordFromTransfer, recordTransferDoc } from "../../../core/collections/transfer.ts";
import type { TransferDoc, TransferKind } from "../../../core/kernel/store-transfer.ts";
import { mongoTenantKind } from "../transfer-docs.ts";
import type { CollectionCollections } from "./collections.ts";
import {
  CHANGE_FIELDS_ONLY,
  collectionDoc,
  entityDoc,
  type RecordChangeDoc,
  recordChangeDoc,
  recordDoc,
  toCollection,
  toEntity,
  toRecord,
  toRecordChange,
} from "./documents.ts";

const asDoc = <T>(v: T) => v as unknown as TransferDoc;

/**
 * Collections' kinds over MongoDB (core/collections/transfer.ts). What the documents derive is
 * derived again on write (`name_lc`, `dedup_slot`, a record's search text); a collection being
 * purged is not read (readers no longer see it), nor a deletion's lock entry in the history; a
 * record whose collection is not there is not written. No rollups here (aggregates scan).
 */
export function mongoCollectionTransfer(c: CollectionCollections): TransferKind[] {
  return [
    mongoTenantKind({
      ...K.collections,
      collection: c.collections,
      filter: { purging: { $exists: false } },
      sort: { workspace_id: 1, _id: 1 },
      toDoc: (d) => asDoc(toCollection(d)),
      toStored: async (docs) => (docs as unknown as Collection[]).map(collectionDoc),
    }),
    mongoTenantKind({
      ...K.entities,
      collection: c.entities,
      sort: { workspace_id: 1, _id: 1 },
      toDoc: (d) => asDoc(toEntity(d)),
      toStored: async (docs) => (docs as unknown as Entity[]).map(entityDoc),
    }),
    mongoTenantKind({
      ...K.records,
      collection: c.records,
      sort: { workspace_id: 1, collection_id: 1, _id: 1 },
      toDoc: (d) => recordTransferDoc(toRecord(d)),
      async toStored(docs) {
        const records = docs.map(recordFromTransfer);
        const ids = [...new Set(records.map((r) => r.collection_id))];
        const there = await c.collections.find({ _id: { $in: ids }, purging: { $exists: false } }, { projection: { workspace_id: 1 } })
          .toArray();
        const live = new Set(there.map((x) => `${x.workspace_id}:${x._id}`));
        return records.filter((r) => live.has(`${r.workspace_id}:${r.collection_id}`)).map(recordDoc);
      },
    }),
    mongoTenantKind({
      ...K.recordChanges,
      collection: c.recordChanges,
      filter: { deleting: { $exists: false } },
      sort: { workspace_id: 1, record_id: 1, version: 1 },
      projection: CHANGE_FIELDS_ONLY,
      toDoc: (d) => asDoc(toRecordChange(d as RecordChangeDoc)),
      toStored: async (docs) => (docs as unknown as RecordChange[]).map((x) => recordChangeDoc(x)),
    }),
  ];
}
