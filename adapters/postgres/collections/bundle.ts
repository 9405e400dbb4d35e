import type { CollectionStores } from "../../../core/collections/ports.ts";
import type { SqlBundle } from "../bundle.ts";
import type { SqlDriver } from "../driver.ts";
import { PostgresCollectionStore } from "./collection-store.ts";
import { PostgresRecordStore } from "./record-store.ts";
import { PostgresEntityStore } from "./entity-store.ts";
import { sqlCollectionTransfer } from "./transfer.ts";

export function sqlCollectionBundle(driver: SqlDriver): SqlBundle<CollectionStores> {
  return {
    stores: {
      collections: new PostgresCollectionStore(driver),
      records: new PostgresRecordStore(driver),
      entities: new PostgresEntityStore(driver),
    },
    transfer: sqlCollectionTransfer(driver),
  };
}
