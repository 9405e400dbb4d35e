/**
 * The indexes of the MongoDB adapter, created at start-up with `createIndexes` (idempotent: an
 * index that exists with the same key and options is left as it is).
 *
 * Tenancy rule (ADR 001): every index of tenant data starts with `workspace_id`, so
 * tenant queries are scoped by construction and a sharded cluster can use `{ workspace_id, _id }`
 * as shard key. `workspaces` and `identities` are global. Lookups of one tenant document go by
 * `{ _id, workspace_id }`: served by the built-in `_id` index, and by the shard key once sharded.
 * Every query of the stores is served by one of these indexes (or `_id`); unique constraints are
 * unique indexes, which is what keeps them under concurrent writes without transactions.
 */
import type { Db, IndexDescription } from "mongodb";

/** A module's collections: their names and their indexes, keyed alike (`<module>/collections.ts`, `<module>/indexes.ts`). */
export interface MongoSchema<K extends string = string> {
  names: Record<K, string>;
  indexes: Record<K, IndexDescription[]>;
}

/**
 * Creates the indexes a collection lacks, one collection at a time; safe to run at every start and
 * from several processes. Asking only for the missing ones, sequentially, matters on FerretDB v1:
 * there, concurrent `createIndexes` calls for indexes that already exist made the server drop the
 * connection, so a second server instance (or a restart) failed to start.
 */
export async function createIndexes(db: Db, schemas: readonly MongoSchema[]): Promise<void> {
  for (const schema of schemas) {
    for (const k of Object.keys(schema.indexes)) {
      const collection = db.collection(schema.names[k]!);
      const existing = new Set((await collection.indexes().catch(() => [])).map((i) => i.name));
      const missing = schema.indexes[k]!.filter((spec) => !existing.has(spec.name!));
      if (missing.length > 0) await collection.createIndexes(missing);
    }
  }
}
