import { isUuid } from "../../../core/kernel/ids.ts";
import type { TransferDoc, TransferKind } from "../../../core/kernel/store-transfer.ts";
import type { SqlDriver } from "../driver.ts";
import type { Row } from "../row-values.ts";

/** Rows per keyset page of a read. */
const PAGE = 500;

/** A key column; text ones are ordered `collate "C"` (code-unit order, whatever the database's collation). */
export interface KeyColumn {
  column: string;
  text?: boolean;
}

/** A kind over one table of a `workspace_id uuid` tenant (core/<module>/transfer.ts gives name, tenant, key). */
export interface SqlKindSpec {
  readonly name: string;
  readonly tenant: boolean;
  readonly key: readonly string[];
  table: string;
  /** The select list: the key columns and whatever `toDoc` reads. */
  columns: string;
  keyColumns: readonly KeyColumn[];
  toDoc(row: Row): TransferDoc;
  /**
   * One statement inserting the documents of `$1` (a JSON array: `jsonb_array_elements($1::text::jsonb) d`),
   * deriving what the store's own insert derives, skipping keys held (`on conflict do nothing`),
   * returning one row per document added.
   */
  insert: string;
}

const ordered = (c: KeyColumn) => (c.text ? `${c.column} collate "C"` : c.column);

/**
 * A kind read by keyset pages in key order (by workspace first when not scoped: the primary
 * keys' order), written a batch per statement.
 */
export function sqlKind(db: SqlDriver, spec: SqlKindSpec): TransferKind {
  const { name, tenant, key } = spec;
  return {
    name,
    tenant,
    key,
    async *read(scope) {
      const ws = scope?.workspaceId;
      if (ws !== undefined && !isUuid(ws)) return;
      const cols = ws === undefined ? [{ column: "workspace_id" }, ...spec.keyColumns] : spec.keyColumns;
      const order = cols.map(ordered).join(", ");
      let after: unknown[] | null = null;
      for (;;) {
        const params: unknown[] = ws === undefined ? [] : [ws];
        const where = ws === undefined ? [] : ["workspace_id = $1"];
        if (after) where.push(`(${order}) > (${after.map((v) => `$${params.push(v)}`).join(", ")})`);
        const rows: Row[] = await db.query<Row>(
          `select ${spec.columns} from ${spec.table} ${where.length ? `where ${where.join(" and ")}` : ""} order by ${order} limit ${PAGE}`,
          params,
        );
        for (const r of rows) yield spec.toDoc(r);
        if (rows.length < PAGE) return;
        const last = rows.at(-1)!;
        after = cols.map((c) => last[c.column]);
      }
    },
    async write(docs) {
      if (docs.length === 0) return 0;
      return (await db.query<Row>(spec.insert, [JSON.stringify(docs)])).length;
    },
    async count(scope) {
      const ws = scope?.workspaceId;
      if (ws !== undefined && !isUuid(ws)) return 0;
      const [row] = await db.query<Row>(
        `select count(*)::int as n from ${spec.table}${ws === undefined ? "" : " where workspace_id = $1"}`,
        ws === undefined ? [] : [ws],
      );
      return Number(row!.n);
    },
  };
}
