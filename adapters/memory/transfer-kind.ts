import type { TransferDoc, TransferKind, TransferScope, TransferValue } from "../../core/kernel/store-transfer.ts";
import type { TransferKindSpec } from "../../core/kernel/transfer-kind-spec.ts";
import { copy } from "./rows.ts";

/** A kind over the memory adapter's tables: its objects as documents, and how one is put back. */
export interface MemoryKindSource<D> {
  spec: TransferKindSpec;
  /** Every stored object of the kind, as a document (a snapshot: the read sorts it). */
  docs(): D[];
  /** Whether the tables hold an object of this document's key. */
  has(doc: D): boolean;
  /** Stores the document as the store's own insert would (derived data included). */
  put(doc: D): void;
}

const compare = (a: TransferValue | undefined, b: TransferValue | undefined): number => {
  if (typeof a === "number" && typeof b === "number") return a - b;
  const x = String(a ?? ""), y = String(b ?? "");
  return x < y ? -1 : x > y ? 1 : 0;
};

/**
 * A transfer kind over a memory table (core/kernel/store-transfer.ts): a sorted snapshot read, a
 * write that leaves held keys alone. Every call runs in one turn of the event loop.
 */
export function memoryKind<D extends object>(src: MemoryKindSource<D>): TransferKind {
  const { spec } = src;
  const scoped = (scope?: TransferScope): TransferDoc[] => {
    const ws = scope?.workspaceId;
    if (ws !== undefined && !spec.tenant) return [];
    const all = src.docs() as unknown as TransferDoc[];
    return ws === undefined ? all : all.filter((d) => d.workspace_id === ws);
  };
  const order = spec.tenant && !spec.key.includes("workspace_id") ? ["workspace_id", ...spec.key] : [...spec.key];
  return {
    ...spec,
    async *read(scope) {
      const docs = scoped(scope).sort((a, b) => {
        for (const k of order) {
          const c = compare(a[k], b[k]);
          if (c !== 0) return c;
        }
        return 0;
      });
      for (const d of docs) yield copy(d);
    },
    async write(docs) {
      let added = 0;
      for (const d of docs as unknown as D[]) {
        if (src.has(d)) continue;
        src.put(copy(d));
        added++;
      }
      return added;
    },
    async count(scope) {
      return scoped(scope).length;
    },
  };
}
