import type { Collection, Document, Filter } from "mongodb";
import { TRANSFER_WRITE_BATCH, type TransferDoc, type TransferKind, type TransferScope } from "../../core/kernel/store-transfer.ts";
import type { TransferKindSpec } from "../../core/kernel/transfer-kind-spec.ts";
import { isDuplicateKey } from "./duplicate-key.ts";

/** A kind over one collection: how a page of its documents reads as transfer documents, and how those are written. */
export interface MongoKindSource<S extends Document, D> {
  spec: TransferKindSpec;
  collection: Collection<S>;
  /** The stored fields of the key, in the order of `spec.key` (`_id` where the key is the `_id`). */
  keyFields: readonly string[];
  /** Which stored documents are objects of the kind (e.g. not a reissue still pending). */
  filter?: Filter<S>;
  /** Sorted after the key within a page (the newest of several versions of one key first). */
  sortTail?: Record<string, 1 | -1>;
  /** How many objects a filter holds, where that is not its documents' count (versions). */
  count?(filter: Filter<S>): Promise<number>;
  /** A page of stored documents (in key order) as transfer documents, in the same order; joins read the page's others at once. */
  toDocs(page: S[]): Promise<D[]>;
  /** Writes the documents whose key the store does not hold; returns how many it added. */
  write(docs: D[]): Promise<number>;
}

const PAGE = 500;

/**
 * A transfer kind over one MongoDB collection (core/kernel/store-transfer.ts): reads sorted on
 * the key (an index serves it: `_id`, or the kind's own) by keyset pages; `write` is the kind's.
 */
export function mongoKind<S extends Document, D extends object>(src: MongoKindSource<S, D>): TransferKind {
  const { spec } = src;
  // Unscoped, a tenant kind whose key is unique per workspace only is sorted by workspace first; an `_id` is unique already.
  const keys = (scoped: boolean) =>
    spec.tenant && !scoped && !src.keyFields.some((f) => f === "workspace_id" || f === "_id")
      ? ["workspace_id", ...src.keyFields]
      : [...src.keyFields];
  const base = (scope: TransferScope | undefined): Document | null => {
    if (scope?.workspaceId === undefined) return { ...(src.filter ?? {}) };
    if (!spec.tenant) return null;
    return { ...(src.filter ?? {}), workspace_id: scope.workspaceId };
  };
  return {
    ...spec,
    async *read(scope) {
      const filter = base(scope);
      if (filter === null) return;
      const fields = keys(scope?.workspaceId !== undefined);
      let last: unknown[] | null = null;
      while (true) {
        const at = last;
        const after = at
          ? { $or: fields.map((f, i) => ({ ...Object.fromEntries(fields.slice(0, i).map((g, j) => [g, at[j]])), [f]: { $gt: at[i] } })) }
          : {};
        const page = await src.collection
          .find({ $and: [filter, after] } as Filter<S>)
          .sort({ ...Object.fromEntries(fields.map((f) => [f, 1])), ...src.sortTail })
          .limit(PAGE)
          .toArray() as S[];
        for (const d of await src.toDocs(page)) yield d as unknown as TransferDoc;
        if (page.length < PAGE) return;
        const tail = page[page.length - 1] as Document;
        last = fields.map((f) => tail[f]);
      }
    },
    async write(docs) {
      if (docs.length === 0) return 0;
      if (docs.length > TRANSFER_WRITE_BATCH) throw new RangeError(`at most ${TRANSFER_WRITE_BATCH} documents per write`);
      return src.write(docs as unknown as D[]);
    },
    async count(scope) {
      const filter = base(scope);
      if (filter === null) return 0;
      return src.count ? src.count(filter as Filter<S>) : src.collection.countDocuments(filter as Filter<S>);
    },
  };
}

/**
 * Inserts the stored documents whose `_id` the collection lacks (one read, one unordered insert);
 * returns how many it inserted. A concurrent insert of the same `_id` is a duplicate, left alone.
 */
export async function insertMissing<S extends Document & { _id: string }>(collection: Collection<S>, docs: S[]): Promise<S[]> {
  if (docs.length === 0) return [];
  const found = await collection.find({ _id: { $in: docs.map((d) => d._id) } } as Filter<S>, { projection: { _id: 1 } }).toArray();
  const held = new Set<unknown>(found.map((d) => d._id));
  const missing = docs.filter((d) => !held.has(d._id));
  if (missing.length === 0) return [];
  try {
    await collection.insertMany(missing as never[], { ordered: false });
  } catch (e) {
    if (!isDuplicateKey(e) || hasOtherErrors(e)) throw e;
  }
  return missing;
}

function hasOtherErrors(e: unknown): boolean {
  const w = (e as { writeErrors?: { code?: unknown }[] | { code?: unknown } }).writeErrors;
  const list = Array.isArray(w) ? w : w ? [w] : [];
  return list.some((x) => x?.code !== 11000);
}
