import type { TransferDoc, TransferKind, TransferScope, TransferValue } from "../../../core/kernel/store-transfer.ts";

/** A kind's name, tenancy and key (core/<module>/transfer.ts). */
export interface KindSpec {
  readonly name: string;
  readonly tenant: boolean;
  readonly key: readonly string[];
}

/** The stored object as a plain JSON document (fields holding `undefined` are dropped, as jsonb and BSON drop them). */
export const asDoc = (row: unknown): TransferDoc => JSON.parse(JSON.stringify(row));

function compare(a: TransferValue | undefined, b: TransferValue | undefined): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  const x = String(a), y = String(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * A memory kind: `rows` snapshots the table as documents, sorted here by workspace then key (the
 * order a scoped read promises; PostgreSQL's unscoped order too); `add` stores one document
 * unless its key is held already, answering whether it did. Each call runs between awaits, so a
 * write is atomic like every memory store method.
 */
export function memoryKind(spec: KindSpec, rows: () => TransferDoc[], add: (doc: TransferDoc) => boolean): TransferKind {
  const order = ["workspace_id", ...spec.key];
  const mine = (scope?: TransferScope) =>
    rows()
      .filter((d) => scope?.workspaceId === undefined || d.workspace_id === scope.workspaceId)
      .sort((a, b) => {
        for (const k of order) {
          const c = compare(a[k], b[k]);
          if (c !== 0) return c;
        }
        return 0;
      });
  return {
    ...spec,
    async *read(scope) {
      yield* mine(scope);
    },
    async write(docs) {
      let added = 0;
      for (const d of docs) if (add(structuredClone(d))) added++;
      return added;
    },
    async count(scope) {
      return mine(scope).length;
    },
  };
}
