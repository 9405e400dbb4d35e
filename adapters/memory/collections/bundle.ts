import type { CollectionStores } from "../../../core/collections/ports.ts";
import { dropWorkspaceKeys, dropWorkspaceRows, type MemoryBundle } from "../bundle.ts";
import { MemoryCollectionStore } from "./collection-store.ts";
import { MemoryEntityStore } from "./entity-store.ts";
import { MemoryRecordStore } from "./record-store.ts";
import type { CollectionTables } from "./tables.ts";
import { memoryCollectionTransfer } from "./transfer.ts";

export function memoryCollectionBundle(t: CollectionTables): MemoryBundle<CollectionStores> {
  return {
    stores: { collections: new MemoryCollectionStore(t), records: new MemoryRecordStore(t), entities: new MemoryEntityStore(t) },
    transfer: memoryCollectionTransfer(t),
    purgeWorkspace(id) {
      dropWorkspaceRows(id, t.collections, t.records, t.recordChanges, t.entities);
      dropWorkspaceKeys(id, t.entityIdByKey);
    },
  };
}
