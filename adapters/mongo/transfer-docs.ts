import type { Collection, Document, Filter, OptionalUnlessRequiredId, Sort } from "mongodb";
import { TRANSFER_WRITE_BATCH, type TransferDoc, type TransferKind } from "../../core/kernel/store-transfer.ts";
import { isDuplicateKey } from "./duplicate-key.ts";

/** One tenant collection as a transfer kind reads and writes it. */
export interface MongoKindSpec<D extends Document> {
  readonly name: string;
  readonly key: readonly string[];
  collection: Collection<D>;
  /** The documents of the kind (leaves out bookkeeping documents such as locks). */
  filter?: Filter<D>;
  /** `workspace_id`, then the key's fields. */
  sort: Sort;
  projection?: Document;
  toDoc(d: D): TransferDoc;
  /** The stored documents of a batch; those it leaves out are not written (a record without its collection). */
  toStored(docs: readonly TransferDoc[]): Promise<D[]>;
}

/** Documents read per batch of the cursor. */
const PAGE = 500;

/**
 * Inserts what is new, unordered: a document whose `_id` or other unique key is taken is left
 * alone (its duplicate-key error ignored); returns how many went in.
 */
export async function insertNew<D extends Document>(c: Collection<D>, docs: D[]): Promise<number> {
  if (docs.length === 0) return 0;
  try {
    const r = await c.insertMany(docs as OptionalUnlessRequiredId<D>[], { ordered: false, ignoreUndefined: true });
    return r.insertedCount;
  } catch (e) {
    const errors = (e as { writeErrors?: unknown }).writeErrors;
    const list = Array.isArray(errors) ? errors : errors ? [errors] : [];
    if (list.length === 0 || !list.every((w) => isDuplicateKey(w) || (w as { code?: unknown }).code === 11000)) throw e;
    return docs.length - list.length;
  }
}

/**
 * A tenant kind over one MongoDB collection: read through a cursor sorted by workspace and key,
 * a page at a time; written by unordered inserts that skip what is there.
 */
export function mongoTenantKind<D extends Document>(spec: MongoKindSpec<D>): TransferKind {
  const filterOf = (workspaceId?: string): Filter<D> =>
    ({ ...(spec.filter ?? {}), ...(workspaceId === undefined ? {} : { workspace_id: workspaceId }) }) as Filter<D>;
  return {
    name: spec.name,
    tenant: true,
    key: spec.key,
    async *read(scope) {
      const cursor = spec.collection.find(filterOf(scope?.workspaceId), { sort: spec.sort, batchSize: PAGE, projection: spec.projection });
      try {
        for await (const d of cursor) yield spec.toDoc(d as D);
      } finally {
        await cursor.close();
      }
    },
    async write(docs) {
      if (docs.length > TRANSFER_WRITE_BATCH) throw new RangeError(`${spec.name}: at most ${TRANSFER_WRITE_BATCH} documents a write`);
      return await insertNew(spec.collection, await spec.toStored(docs));
    },
    async count(scope) {
      return await spec.collection.countDocuments(filterOf(scope?.workspaceId));
    },
  };
}
