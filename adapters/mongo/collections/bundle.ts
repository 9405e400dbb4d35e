import type { CollectionStores } from "../../../core/collections/ports.ts";
import type { CollectionCollections } from "./collections.ts";
import { deleteWorkspaceDocs, type MongoBundle } from "../bundle.ts";
import { MongoCollectionStore } from "./collection-store.ts";
import { MongoRecordStore } from "./record-store.ts";
import { MongoEntityStore } from "./entity-store.ts";
import { mongoCollectionTransfer } from "./transfer.ts";

export function mongoCollectionBundle(c: CollectionCollections): MongoBundle<CollectionStores> {
  return {
    stores: {
      collections: new MongoCollectionStore(c),
      records: new MongoRecordStore(c),
      entities: new MongoEntityStore(c),
    },
    transfer: mongoCollectionTransfer(c),
    purgeWorkspace: (id) =>
      deleteWorkspaceDocs(
        id,
        c.collections,
        c.collectionVersions,
        c.records,
        c.recordChanges,
        c.entities,
        c.entityVersions,
        c.recordImports,
        c.recordImportWrites,
      ),
  };
}
