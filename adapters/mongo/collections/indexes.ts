import type { IndexDescription } from "mongodb";
import type { COLLECTION_COLLECTION_NAMES } from "./collections.ts";

/** Collections' indexes, by collection (the tenancy rule and its exceptions: ../indexes.ts). */
export const COLLECTION_INDEXES: Record<keyof typeof COLLECTION_COLLECTION_NAMES, IndexDescription[]> = {
  // Collections, newest first (lookups go by _id); `purging` is a marker read with them.
  collections: [{ key: { workspace_id: 1, _id: -1 }, name: "workspace_id" }],
  collectionVersions: [
    // The lock of every collection write and purge (one writer inserts version v+1); the newest
    // version by the same index read backwards (roll-forward); a collection's on its purge.
    { key: { workspace_id: 1, collection_id: 1, version: -1 }, name: "workspace_collection_version_unique", unique: true },
  ],
  records: [
    // A collection's records by id (the default order: created_at is id order), its purge.
    { key: { workspace_id: 1, collection_id: 1, _id: 1 }, name: "workspace_collection_id" },
    // Boards and filters by stage, in id order; the sort by status.
    { key: { workspace_id: 1, collection_id: 1, status: 1, _id: 1 }, name: "workspace_collection_status_id" },
    // The records of some entities in a collection (radar finds an entity's record there).
    { key: { workspace_id: 1, collection_id: 1, entity_id: 1 }, name: "workspace_collection_entity" },
  ],
  recordChanges: [
    // The lock of every record write (one writer inserts version v+1); history newest first;
    // the newest entry of a record (roll-forward); a record's entries on its deletion.
    { key: { workspace_id: 1, record_id: 1, version: -1 }, name: "workspace_record_version_unique", unique: true },
    // A collection's entries on its purge plan and purge.
    { key: { workspace_id: 1, collection_id: 1 }, name: "workspace_collection" },
  ],
  entities: [
    // The upsert's lock: one entity per (workspace, kind, dedup_norm); `dedup_slot` is `k:<norm>`,
    // or `id:<id>` for an entity without a key (no partial index on FerretDB v1).
    { key: { workspace_id: 1, kind: 1, dedup_slot: 1 }, name: "workspace_kind_slot_unique", unique: true },
    // Lists newest first, of one kind or of all.
    { key: { workspace_id: 1, kind: 1, _id: -1 }, name: "workspace_kind_id" },
    { key: { workspace_id: 1, _id: -1 }, name: "workspace_id" },
  ],
  // Records imports (record-import.ts): a collection's unfinished ones; an import's staged writes in order.
  recordImports: [{ key: { workspace_id: 1, collection_id: 1 }, name: "workspace_collection" }],
  recordImportWrites: [{ key: { workspace_id: 1, import_id: 1, kind: 1, seq: 1 }, name: "workspace_import_kind_seq" }],
  entityVersions: [
    // The lock of every entity merge; the newest version (roll-forward).
    { key: { workspace_id: 1, entity_id: 1, version: -1 }, name: "workspace_entity_version_unique", unique: true },
  ],
};
