import {
  CREDIT_TRANSFER_KINDS as K,
  idempotencyDoc,
  idempotencyFromDoc,
  ledgerEntryDoc,
  ledgerEntryFromDoc,
} from "../../../core/credits/transfer.ts";
import type { TransferDoc, TransferKind } from "../../../core/kernel/store-transfer.ts";
import { iso, type SqlDriver } from "../driver.ts";
import type { Row } from "../row-values.ts";
import { sqlTenantKind } from "../transfer-rows.ts";
import { ENTRY_COLUMNS, toEntry } from "./rows.ts";

/** The entries' record types; `id` is the type of both `id` and `hold_id` (imported history keeps them as text). */
const entryTypes = (id: "uuid" | "text") =>
  `workspace_id uuid, seq bigint, id ${id}, type text, amount bigint, held bigint, balance_after bigint, held_after bigint,
  run_id text, record_id text, hold_id ${id}, idempotency_key text, reason text, at timestamptz`;

/** Inserts entries into `table` as they are; the rows it added (a taken seq, id, key or hold skips one). */
async function insertEntries(tx: SqlDriver, table: string, id: "uuid" | "text", docs: readonly TransferDoc[]): Promise<Row[]> {
  const rows = docs.map((d) => {
    const { workspaceId, entry } = ledgerEntryFromDoc(d);
    return { workspace_id: workspaceId, ...entry };
  });
  return await tx.query<Row>(
    `insert into ${table} (workspace_id, ${ENTRY_COLUMNS})
     select workspace_id, ${ENTRY_COLUMNS} from jsonb_to_recordset($1::text::jsonb) as d(${entryTypes(id)})
     on conflict do nothing returning workspace_id`,
    [JSON.stringify(rows)],
  );
}

/**
 * Credits' kinds over PostgreSQL (core/credits/transfer.ts). Writing entries moves each touched
 * account (balance, held, seq) to its newest entry's running totals, in the same transaction: the
 * account is derived, and the next append takes the next seq. Imported history has a table of its
 * own (migration 033) that nothing counts.
 */
export function sqlCreditTransfer(db: SqlDriver): TransferKind[] {
  return [
    sqlTenantKind(db, {
      ...K.ledgerEntries,
      table: "credit_entries",
      columns: `workspace_id, ${ENTRY_COLUMNS}`,
      order: ["seq"],
      toDoc: (r) => ledgerEntryDoc(r.workspace_id as string, toEntry(r)),
      async insert(tx, docs) {
        const added = await insertEntries(tx, "credit_entries", "uuid", docs);
        if (added.length > 0) {
          await tx.query(
            `insert into credit_accounts as a (workspace_id, balance, held, seq)
             select distinct on (workspace_id) workspace_id, balance_after, held_after, seq from credit_entries
             where workspace_id = any($1::uuid[]) order by workspace_id, seq desc
             on conflict (workspace_id) do update set balance = excluded.balance, held = excluded.held, seq = excluded.seq
               where a.seq < excluded.seq`,
            [[...new Set(added.map((r) => r.workspace_id as string))]],
          );
        }
        return added.length;
      },
    }),
    sqlTenantKind(db, {
      ...K.importedEntries,
      table: "imported_credit_entries",
      columns: `workspace_id, ${ENTRY_COLUMNS}`,
      order: ["seq"],
      toDoc: (r) => ledgerEntryDoc(r.workspace_id as string, toEntry(r)),
      insert: async (tx, docs) => (await insertEntries(tx, "imported_credit_entries", "text", docs)).length,
    }),
    sqlTenantKind(db, {
      ...K.idempotency,
      table: "idempotency_keys",
      columns: "workspace_id, scope, key, fingerprint, state, status, body, created_at, expires_at",
      order: [`scope collate "C"`, `key collate "C"`],
      toDoc: (r) =>
        idempotencyDoc({
          workspace_id: r.workspace_id as string,
          scope: r.scope as string,
          key: r.key as string,
          fingerprint: r.fingerprint as string,
          state: r.state as "pending" | "done",
          status: r.status === null || r.status === undefined ? null : Number(r.status),
          body: r.body ?? null,
          created_at: iso(r.created_at),
          expires_at: iso(r.expires_at),
        }),
      async insert(tx, docs) {
        const rows = docs.map(idempotencyFromDoc);
        const added = await tx.query<Row>(
          `insert into idempotency_keys (workspace_id, scope, key, fingerprint, state, status, body, created_at, expires_at)
           select workspace_id, scope, key, fingerprint, state, status, body, created_at, expires_at
           from jsonb_to_recordset($1::text::jsonb) as d(workspace_id uuid, scope text, key text, fingerprint text, state text,
             status integer, body jsonb, created_at timestamptz, expires_at timestamptz)
           on conflict do nothing returning workspace_id`,
          [JSON.stringify(rows)],
        );
        return added.length;
      },
    }),
  ];
}
