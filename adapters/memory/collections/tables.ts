import type { Collection, CollectionRecord, Entity, RecordChange } from "../../../core/collections/model.ts";

/** The in-memory tables of collections (the adapter's composition shares one object of every module's tables). */
export class CollectionTables {
  collections = new Map<string, Collection>();
  records = new Map<string, CollectionRecord>();
  recordChanges = new Map<string, RecordChange>();
  entities = new Map<string, Entity>();
  /** `${workspace_id}:${kind}:${dedup_norm}` → entity id */
  entityIdByKey = new Map<string, string>();
}
