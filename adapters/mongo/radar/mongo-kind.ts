import type { Collection, Document, Sort } from "mongodb";
import type { TransferDoc, TransferKind } from "../../../core/kernel/store-transfer.ts";
import { isDuplicateKey } from "../duplicate-key.ts";

/** Documents per batch of a read's cursor. */
const PAGE = 500;

/** A kind over one collection whose documents are the stored objects plus `_id`. */
export interface MongoKindSpec {
  readonly name: string;
  readonly tenant: boolean;
  readonly key: readonly string[];
  // deno-lint-ignore no-explicit-any
  collection: Collection<any>;
  /** The documents of one workspace, or of all (`undefined`). */
  filter(workspaceId: string | undefined): Document;
  /** Key order (by workspace first when unscoped), served by an index or `_id`. */
  sort(workspaceId: string | undefined): Sort;
  /** The `_id` the store's own insert gives the object. */
  idOf(doc: TransferDoc): string;
  /** The stored document as the transfer document; default: without `_id`. */
  toDoc?(d: Document): TransferDoc;
}

const withoutId = ({ _id: _, ...rest }: Document): TransferDoc => rest as TransferDoc;

/**
 * A kind read through one sorted cursor (a batch of `PAGE` at a time) and written as the store's
 * insert writes it: the documents whose `_id` is not held yet, one unordered `insertMany` (a
 * concurrent insert of the same key is skipped as a duplicate).
 */
export function mongoKind(spec: MongoKindSpec): TransferKind {
  const { name, tenant, key } = spec;
  const toDoc = spec.toDoc ?? withoutId;
  return {
    name,
    tenant,
    key,
    async *read(scope) {
      const ws = scope?.workspaceId;
      const cursor = spec.collection.find(spec.filter(ws)).sort(spec.sort(ws)).batchSize(PAGE);
      try {
        for await (const d of cursor) yield toDoc(d);
      } finally {
        await cursor.close();
      }
    },
    async write(docs) {
      if (docs.length === 0) return 0;
      const stored = docs.map((d) => ({ ...structuredClone(d), _id: spec.idOf(d) }));
      const held = new Set(
        (await spec.collection.find({ _id: { $in: stored.map((d) => d._id) } }, { projection: { _id: 1 } }).toArray()).map((d) => d._id),
      );
      const fresh = stored.filter((d) => !held.has(d._id));
      if (fresh.length === 0) return 0;
      try {
        await spec.collection.insertMany(fresh, { ordered: false });
        return fresh.length;
      } catch (e) {
        if (!isDuplicateKey(e)) throw e;
        const failed = (e as { writeErrors?: unknown[] }).writeErrors;
        return fresh.length - (Array.isArray(failed) ? failed.length : 0);
      }
    },
    count(scope) {
      return spec.collection.countDocuments(spec.filter(scope?.workspaceId));
    },
  };
}

/** The filter of a tenant collection: one workspace's documents, or all. */
export const byWorkspace = (ws: string | undefined): Document => (ws === undefined ? {} : { workspace_id: ws });
