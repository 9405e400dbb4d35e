import type { Collection, Db } from "mongodb";
import type { CollectionDoc, CollectionVersionDoc, EntityDoc, EntityVersionDoc, RecordChangesDoc, RecordDoc } from "./documents.ts";
import type { ImportWriteDoc, RecordImportDoc } from "./record-import.ts";

/** Collections' collections of one database (their indexes: indexes.ts). */
export interface CollectionCollections {
  collections: Collection<CollectionDoc>;
  collectionVersions: Collection<CollectionVersionDoc>;
  records: Collection<RecordDoc>;
  recordChanges: Collection<RecordChangesDoc>;
  entities: Collection<EntityDoc>;
  entityVersions: Collection<EntityVersionDoc>;
  recordImports: Collection<RecordImportDoc>;
  recordImportWrites: Collection<ImportWriteDoc>;
}

export const COLLECTION_COLLECTION_NAMES = {
  collections: "collections",
  collectionVersions: "collection_versions",
  records: "records",
  recordChanges: "record_changes",
  entities: "entities",
  entityVersions: "entity_versions",
  recordImports: "record_imports",
  recordImportWrites: "record_import_writes",
} as const;

export function collectionCollections(db: Db): CollectionCollections {
  return {
    collections: db.collection<CollectionDoc>(COLLECTION_COLLECTION_NAMES.collections),
    collectionVersions: db.collection<CollectionVersionDoc>(COLLECTION_COLLECTION_NAMES.collectionVersions),
    records: db.collection<RecordDoc>(COLLECTION_COLLECTION_NAMES.records),
    recordChanges: db.collection<RecordChangesDoc>(COLLECTION_COLLECTION_NAMES.recordChanges),
    entities: db.collection<EntityDoc>(COLLECTION_COLLECTION_NAMES.entities),
    entityVersions: db.collection<EntityVersionDoc>(COLLECTION_COLLECTION_NAMES.entityVersions),
    recordImports: db.collection<RecordImportDoc>(COLLECTION_COLLECTION_NAMES.recordImports),
    recordImportWrites: db.collection<ImportWriteDoc>(COLLECTION_COLLECTION_NAMES.recordImportWrites),
  };
}
