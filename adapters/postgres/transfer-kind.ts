import { TRANSFER_WRITE_BATCH, type TransferDoc, type TransferKind, type TransferScope } from "../../core/kernel/store-transfer.ts";
import type { TransferKindSpec } from "../../core/kernel/transfer-kind-spec.ts";
import type { SqlDriver } from "./driver.ts";
import type { Row } from "./row-values.ts";

/** A column a kind writes: its name, the cast of its parameter (`text[]`, `text::jsonb`), and its value in a document. */
export interface SqlTransferColumn<D> {
  name: string;
  cast?: string;
  value(doc: D): unknown;
}

/** A kind over one table: how its rows read as documents, and how documents are inserted. */
export interface SqlKindSource<D> {
  spec: TransferKindSpec;
  table: string;
  /** The select list over the table aliased `t`, one output per document field. */
  select: string;
  toDoc(row: Row): D;
  /** The key's columns, in the order of `spec.key` (a document's key field and its column share the name); `text`: ordered `collate "C"`. */
  keyColumns: readonly { name: string; text: boolean }[];
  columns: readonly SqlTransferColumn<D>[];
  /** Whether the table has `workspace_id` (a tenant kind's scope); `spec.tenant` when absent. */
  workspaceColumn?: boolean;
}

/** The rows of a keyset page. */
const PAGE = 500;

/**
 * A transfer kind over one PostgreSQL table (core/kernel/store-transfer.ts): reads in key order
 * by keyset pages (never OFFSET; text keys `collate "C"`, the code-unit order of the other
 * backends), a write as one `insert … on conflict do nothing` per batch.
 */
export function sqlKind<D extends object>(db: SqlDriver, src: SqlKindSource<D>): TransferKind {
  const { spec } = src;
  // Unscoped, a tenant kind whose key is unique per workspace only is ordered by workspace first (a total order for the keyset).
  const order = (scoped: boolean) =>
    spec.tenant && !scoped && !src.keyColumns.some((k) => k.name === "workspace_id")
      ? [{ name: "workspace_id", text: false }, ...src.keyColumns]
      : [...src.keyColumns];
  const col = (k: { name: string; text: boolean }) => (k.text ? `t.${k.name} collate "C"` : `t.${k.name}`);
  const where = (scope: TransferScope | undefined, params: unknown[]): string[] | null => {
    if (scope?.workspaceId === undefined) return [];
    if (!spec.tenant) return null;
    params.push(scope.workspaceId);
    return [`t.workspace_id = $${params.length}`];
  };

  return {
    ...spec,
    async *read(scope) {
      const scoped = scope?.workspaceId !== undefined;
      const keys = order(scoped);
      let last: unknown[] | null = null;
      while (true) {
        const params: unknown[] = [];
        const conds = where(scope, params);
        if (conds === null) return;
        if (last) {
          // (k1, k2, …) > (v1, v2, …), spelled out so each column keeps its collation.
          const at = last;
          const ors = keys.map((_, i) => {
            const eqs = keys.slice(0, i).map((k, j) => `${col(k)} = $${params.push(at[j])}`);
            return `(${[...eqs, `${col(keys[i]!)} > $${params.push(at[i])}`].join(" and ")})`;
          });
          conds.push(`(${ors.join(" or ")})`);
        }
        const rows = await db.query<Row>(
          `select ${src.select}, ${keys.map((k, i) => `t.${k.name} as _k${i}`).join(", ")} from ${src.table} t
           ${conds.length > 0 ? `where ${conds.join(" and ")}` : ""}
           order by ${keys.map(col).join(", ")} limit ${PAGE}`,
          params,
        );
        for (const r of rows) yield src.toDoc(r) as unknown as TransferDoc;
        if (rows.length < PAGE) return;
        const tail = rows[rows.length - 1]!;
        last = keys.map((_, i) => tail[`_k${i}`]);
      }
    },
    async write(docs) {
      if (docs.length === 0) return 0;
      if (docs.length > TRANSFER_WRITE_BATCH) throw new RangeError(`at most ${TRANSFER_WRITE_BATCH} documents per write`);
      const params: unknown[] = [];
      const values = (docs as unknown as D[]).map((d) =>
        `(${src.columns.map((c) => `$${params.push(c.value(d))}${c.cast ? `::${c.cast}` : ""}`).join(", ")})`
      );
      const rows = await db.query(
        `insert into ${src.table} (${src.columns.map((c) => c.name).join(", ")}) values ${values.join(", ")}
         on conflict do nothing returning 1 as added`,
        params,
      );
      return rows.length;
    },
    async count(scope) {
      const params: unknown[] = [];
      const conds = where(scope, params);
      if (conds === null) return 0;
      const [row] = await db.query<{ n: string | number }>(
        `select count(*) as n from ${src.table} t ${conds.length > 0 ? `where ${conds.join(" and ")}` : ""}`,
        params,
      );
      return Number(row?.n ?? 0);
    },
  };
}

/** Columns that are the document's fields of the same names, uncast. */
export const plainColumns = <D>(...names: (keyof D & string)[]): SqlTransferColumn<D>[] =>
  names.map((name) => ({ name, value: (d: D) => d[name] }));
