import type { Collection, Document, Filter, OptionalUnlessRequiredId, Sort } from "mongodb";
import type { TransferDoc, TransferKind, TransferScope } from "../../../core/kernel/store-transfer.ts";
import { isDuplicateKey } from "../duplicate-key.ts";

/** A tenant kind (core/<module>/transfer.ts names it). */
export interface MongoKindSpec {
  name: string;
  tenant: boolean;
  key: readonly string[];
}

/** How many documents a read's cursor fetches per round trip. */
const READ_BATCH = 500;

/**
 * A kind over one collection: read in key order (`sort`, served by `_id` or an index), by
 * workspace when asked; `write` inserts the stored form of documents (`stored`) whose `_id` is
 * not held yet, unordered, a duplicate of a unique index (a slug, a token hash) skipped like a
 * held key, and then runs `after` on those it added (what they derive). Shared by the MongoDB
 * adapter's topics, code-context and sharing.
 */
export function mongoTenantKind<D extends Document & { _id: string }>(
  spec: MongoKindSpec,
  c: Collection<D>,
  o: {
    sort: Sort;
    toDoc(d: D): TransferDoc;
    stored(doc: TransferDoc): D;
    after?(added: D[]): Promise<void>;
  },
): TransferKind {
  const filter = (scope?: TransferScope) => (scope?.workspaceId === undefined ? {} : { workspace_id: scope.workspaceId }) as Filter<D>;
  return {
    name: spec.name,
    tenant: spec.tenant,
    key: spec.key,
    async *read(scope) {
      for await (const d of c.find(filter(scope)).sort(o.sort).batchSize(READ_BATCH)) yield o.toDoc(d as D);
    },
    async write(docs) {
      if (docs.length === 0) return 0;
      const all = docs.map(o.stored);
      const held = new Set(
        (await c.find({ _id: { $in: all.map((d) => d._id) } } as Filter<D>, { projection: { _id: 1 } }).toArray()).map((d) =>
          d._id as string
        ),
      );
      const fresh = all.filter((d) => !held.has(d._id));
      if (fresh.length === 0) return 0;
      let added = fresh;
      try {
        await c.insertMany(fresh as OptionalUnlessRequiredId<D>[], { ordered: false });
      } catch (e) {
        if (!isDuplicateKey(e)) throw e;
        // Some were refused by a unique index (or a concurrent copy): keep those that landed.
        const landed = await c.find({ _id: { $in: fresh.map((d) => d._id) } } as Filter<D>, { projection: { _id: 1 } }).toArray();
        const ids = new Set(landed.map((d) => d._id as string));
        added = fresh.filter((d) => ids.has(d._id));
      }
      if (added.length > 0 && o.after) await o.after(added);
      return added.length;
    },
    async count(scope) {
      return await c.countDocuments(filter(scope));
    },
  };
}
