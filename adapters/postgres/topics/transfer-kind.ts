import type { TransferDoc, TransferKind, TransferScope } from "../../../core/kernel/store-transfer.ts";
import { isUuid } from "../../../core/kernel/ids.ts";
import type { SqlDriver } from "../driver.ts";
import type { Row } from "../row-values.ts";

/** How many rows a read fetches per statement (keyset pages, never OFFSET). */
const READ_PAGE = 500;

/** A tenant kind of one table (core/<module>/transfer.ts names it). */
export interface SqlKindSpec {
  name: string;
  tenant: boolean;
  key: readonly string[];
}

export interface SqlTableKind {
  /** The table read. */
  table: string;
  /**
   * The key's columns as SQL, in key order, text ones with `collate "C"` (code-unit order, as
   * every backend reads them).
   */
  keyColumns: readonly string[];
  /** The select list. */
  columns: string;
  toDoc(r: Row): TransferDoc;
  /** Inserts documents (at most TRANSFER_WRITE_BATCH) and what they derive; returns how many were added. */
  write(db: SqlDriver, docs: readonly TransferDoc[]): Promise<number>;
}

/**
 * A kind over one table: read in (workspace, key) order, a workspace's in key order, a page of
 * READ_PAGE rows per statement after the last key read. Shared by the SQL adapter's topics,
 * code-context and sharing.
 */
export function sqlTenantKind(db: SqlDriver, spec: SqlKindSpec, t: SqlTableKind): TransferKind {
  const scoped = (scope?: TransferScope) => scope?.workspaceId !== undefined;
  return {
    name: spec.name,
    tenant: spec.tenant,
    key: spec.key,
    async *read(scope) {
      if (scoped(scope) && !isUuid(scope!.workspaceId!)) return;
      const cols = scoped(scope) ? [...t.keyColumns] : ["workspace_id", ...t.keyColumns];
      const fields = scoped(scope) ? [...spec.key] : ["workspace_id", ...spec.key];
      let after: unknown[] | null = null;
      for (;;) {
        const params: unknown[] = [];
        const where: string[] = [];
        if (scoped(scope)) {
          params.push(scope!.workspaceId);
          where.push(`workspace_id = $1::uuid`);
        }
        if (after) {
          const at = params.length;
          params.push(...after);
          where.push(
            `(${cols.join(", ")}) > (${cols.map((c, i) => `$${at + i + 1}${c.endsWith(`collate "C"`) ? ` collate "C"` : ""}`).join(", ")})`,
          );
        }
        const rows = await db.query<Row>(
          `select ${t.columns} from ${t.table} ${where.length ? `where ${where.join(" and ")}` : ""}
           order by ${cols.join(", ")} limit ${READ_PAGE}`,
          params,
        );
        for (const r of rows) yield t.toDoc(r);
        if (rows.length < READ_PAGE) return;
        const last = t.toDoc(rows[rows.length - 1]!);
        after = fields.map((f) => last[f]);
      }
    },
    async write(docs) {
      if (docs.length === 0) return 0;
      return await db.transaction((tx) => t.write(tx, docs));
    },
    async count(scope) {
      if (scoped(scope) && !isUuid(scope!.workspaceId!)) return 0;
      const rows = await db.query<{ n: number }>(
        `select count(*)::int as n from ${t.table} ${scoped(scope) ? "where workspace_id = $1::uuid" : ""}`,
        scoped(scope) ? [scope!.workspaceId] : [],
      );
      return Number(rows[0]?.n ?? 0);
    },
  };
}

/** A JSON array field of a `jsonb_to_recordset` row as a text array, in its order. */
export const textArray = (expr: string) => `array(select e from jsonb_array_elements_text(${expr}) with ordinality as a (e, n) order by n)`;

/** `jsonb_to_recordset` of the documents, bound as one text parameter ($1). */
export const RECORDS = `jsonb_to_recordset($1::text::jsonb)`;
