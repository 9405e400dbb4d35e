import type { TransferDoc, TransferKind, TransferScope, TransferValue } from "../../../core/kernel/store-transfer.ts";
import { copy } from "../rows.ts";

/** What names a memory kind (core/<module>/transfer.ts). */
export interface MemoryKindSpec {
  name: string;
  tenant: boolean;
  key: readonly string[];
}

/** Key values in code-unit order (numbers as numbers), as the transfer contract reads them. */
function compareValues(a: TransferValue | undefined, b: TransferValue | undefined): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  const x = String(a ?? ""), y = String(b ?? "");
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * A kind over one memory table, tenant: `docs()` gives every stored object as its document; a
 * read sorts a snapshot of them by workspace, then key (by key alone within one workspace).
 * `add` stores one document and its derived state, or answers false when its key (or a unique
 * value) is held already. Shared by the memory adapter's topics, code-context and sharing.
 */
export function memoryTenantKind(spec: MemoryKindSpec, docs: () => TransferDoc[], add: (doc: TransferDoc) => boolean): TransferKind {
  const select = (scope?: TransferScope): TransferDoc[] => {
    const ws = scope?.workspaceId;
    const rows = docs().filter((d) => ws === undefined || d.workspace_id === ws);
    return rows.sort((a, b) => {
      const w = compareValues(a.workspace_id, b.workspace_id);
      if (w !== 0) return w;
      for (const k of spec.key) {
        const c = compareValues(a[k], b[k]);
        if (c !== 0) return c;
      }
      return 0;
    });
  };
  return {
    name: spec.name,
    tenant: spec.tenant,
    key: spec.key,
    async *read(scope) {
      for (const d of select(scope)) yield d;
    },
    async write(batch) {
      let added = 0;
      for (const d of batch) if (add(copy(d))) added++;
      return added;
    },
    async count(scope) {
      return select(scope).length;
    },
  };
}

/** A stored object as a transfer document (a deep copy: the tables stay private). */
export const asTransferDoc = <T>(row: T): TransferDoc => copy(row) as unknown as TransferDoc;
