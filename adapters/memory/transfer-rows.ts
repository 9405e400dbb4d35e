import type { TransferDoc, TransferKind, TransferScope, TransferValue } from "../../core/kernel/store-transfer.ts";
import { copy } from "./rows.ts";

/** What a memory kind is, besides its rows: its name, tenancy and key (core/<module>/transfer.ts). */
export interface MemoryKindSpec {
  readonly name: string;
  readonly tenant: boolean;
  readonly key: readonly string[];
}

function compareValues(a: TransferValue | undefined, b: TransferValue | undefined): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  const x = String(a ?? ""), y = String(b ?? "");
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * A kind over memory tables: `docs()` gives every document (built from a snapshot of the rows),
 * read sorted by workspace then key (code-unit order, numbers as numbers); `adder()`'s function
 * stores one document unless its key (or another unique value) is taken, and says whether it did. Every
 * call runs without an await between its reads and writes, atomic as every memory store method.
 */
export function memoryTransferKind(
  spec: MemoryKindSpec,
  docs: () => Iterable<TransferDoc>,
  /** Called once per write: what adds one document of it (unique values it checks may be gathered once here). */
  adder: () => (doc: TransferDoc) => boolean,
): TransferKind {
  const select = (scope?: TransferScope): TransferDoc[] => {
    const ws = scope?.workspaceId;
    if (ws !== undefined && !spec.tenant) return [];
    const out = [...docs()].filter((d) => ws === undefined || d.workspace_id === ws);
    const order = spec.tenant ? ["workspace_id", ...spec.key] : spec.key;
    return out.sort((a, b) => {
      for (const k of order) {
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
      const add = adder();
      let added = 0;
      for (const d of batch) if (add(copy(d))) added++;
      return added;
    },
    async count(scope) {
      return select(scope).length;
    },
  };
}
