import { isUuid } from "../../core/kernel/ids.ts";
import { TRANSFER_WRITE_BATCH, type TransferDoc, type TransferKind, type TransferScope } from "../../core/kernel/store-transfer.ts";
import type { SqlDriver } from "./driver.ts";
import type { Row } from "./row-values.ts";

/** One tenant table as a transfer kind reads it. */
export interface SqlKindTable {
  readonly name: string;
  readonly key: readonly string[];
  /** The table (or a view) read. */
  table: string;
  /** The columns selected (`workspace_id` and the key's columns among them). */
  columns: string;
  /**
   * The order of the read after `workspace_id`: each of `key`'s columns, `collate "C"` for text
   * (uuid and integer columns order as their values). An index serves it.
   */
  order: readonly string[];
  toDoc(row: Row): TransferDoc;
  /** Inserts a batch (≤ 500 documents) in the transaction `tx` as they are; returns how many it added. */
  insert(tx: SqlDriver, docs: readonly TransferDoc[]): Promise<number>;
}

/** Rows read per page. */
const PAGE = 500;

/**
 * A tenant kind over one PostgreSQL table: read in keyset pages of `(workspace_id, key…)` order
 * (never OFFSET), a workspace's rows only when scoped; each write one transaction (the insert and
 * whatever it derives: rollups, the account row).
 */
export function sqlTenantKind(db: SqlDriver, t: SqlKindTable): TransferKind {
  const keyColumns = ["workspace_id", ...t.key];
  const orderBy = ["workspace_id", ...t.order];
  async function* read(scope?: TransferScope): AsyncIterable<TransferDoc> {
    const ws = scope?.workspaceId;
    if (ws !== undefined && !isUuid(ws)) return;
    let after: unknown[] | null = null;
    for (;;) {
      const params: unknown[] = [];
      const where: string[] = [];
      if (ws !== undefined) where.push(`workspace_id = $${params.push(ws)}`);
      if (after) where.push(`(${orderBy.join(", ")}) > (${after.map((v) => `$${params.push(v)}`).join(", ")})`);
      const rows: Row[] = await db.query<Row>(
        `select ${t.columns} from ${t.table} ${where.length ? `where ${where.join(" and ")}` : ""}
         order by ${orderBy.join(", ")} limit ${PAGE}`,
        params,
      );
      for (const r of rows) yield t.toDoc(r);
      if (rows.length < PAGE) return;
      const last = rows.at(-1)!;
      after = keyColumns.map((c) => last[c]);
    }
  }
  return {
    name: t.name,
    tenant: true,
    key: t.key,
    read,
    async write(docs) {
      if (docs.length === 0) return 0;
      if (docs.length > TRANSFER_WRITE_BATCH) throw new RangeError(`${t.name}: at most ${TRANSFER_WRITE_BATCH} documents a write`);
      return await db.transaction((tx) => t.insert(tx, docs));
    },
    async count(scope) {
      const ws = scope?.workspaceId;
      if (ws !== undefined && !isUuid(ws)) return 0;
      const [row] = await db.query<Row>(
        `select count(*) as n from ${t.table}${ws === undefined ? "" : " where workspace_id = $1"}`,
        ws === undefined ? [] : [ws],
      );
      return Number(row?.n ?? 0);
    },
  };
}
