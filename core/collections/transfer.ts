import type { TransferDoc } from "../kernel/store-transfer.ts";
import type { CollectionRecord } from "./model.ts";
import { recordSearchText } from "./record-text.ts";

/**
 * Collections' transfer kinds (ADR 067, ADR 070), in write order: collections (a record's foreign
 * key), entities (records name them), records, then their history. One list the three adapters'
 * transfer.ts import. Keys are unique per workspace and served by each adapter's primary index:
 * records by `(collection_id, id)`, history by `(record_id, version)`.
 *
 * What a store derives is not moved: a record's `search_text` (recordSearchText of its fields),
 * PostgreSQL's `numbers` column and rollup groups (the collection write declares its rollups, the
 * statement triggers of the record write fill them), the memory adapter's entity key index, the
 * MongoDB adapter's `name_lc`, `dedup_slot` and version locks. Plan usage counters are billing's.
 */
export const COLLECTION_TRANSFER_KINDS = {
  collections: { name: "collections.collections", tenant: true, key: ["id"] },
  entities: { name: "collections.entities", tenant: true, key: ["id"] },
  records: { name: "collections.records", tenant: true, key: ["collection_id", "id"] },
  recordChanges: { name: "collections.record_changes", tenant: true, key: ["record_id", "version"] },
} as const;

/** A record as it moves: the stored record without its derived search text. */
export type RecordTransferDoc = Omit<CollectionRecord, "search_text">;

/** The record's document (field by field, so a derived field never leaves). */
export function recordTransferDoc(r: CollectionRecord): TransferDoc {
  const doc: RecordTransferDoc = {
    id: r.id,
    workspace_id: r.workspace_id,
    collection_id: r.collection_id,
    fields: r.fields,
    status: r.status,
    field_meta: r.field_meta,
    entity_id: r.entity_id,
    drifted: r.drifted,
    created_by: r.created_by,
    updated_by: r.updated_by,
    version: r.version,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
  return doc as unknown as TransferDoc;
}

/** The record a document stores, its search text derived as a write of it would. */
export function recordFromTransfer(doc: TransferDoc): CollectionRecord {
  const d = doc as unknown as RecordTransferDoc;
  return {
    id: d.id,
    workspace_id: d.workspace_id,
    collection_id: d.collection_id,
    fields: d.fields ?? {},
    status: d.status,
    field_meta: d.field_meta ?? {},
    entity_id: d.entity_id ?? null,
    drifted: d.drifted ?? false,
    search_text: recordSearchText(d.fields ?? {}),
    created_by: d.created_by ?? null,
    updated_by: d.updated_by ?? null,
    version: d.version,
    created_at: d.created_at,
    updated_at: d.updated_at,
  };
}
