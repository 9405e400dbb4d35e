/**
 * A workspace's ledger imported with an archive, kept as history only (docs/decisions/070-moving-
 * records-and-credits.md): a table of its own that no ledger write, total or history reads, so it
 * never counts in balance or available, whatever it holds. Numbered by `seq` as the archive numbered
 * it (the archive's order and natural key); no checks of the running totals: it is what the other
 * service wrote, validated line by line by the import.
 */
export default {
  version: 33,
  name: "imported-credit-entries",
  sql: /* sql */ `
create table imported_credit_entries (
  workspace_id uuid not null references workspaces (id) on delete cascade,
  seq bigint not null,
  id text not null,
  type text not null,
  amount bigint not null,
  held bigint not null,
  balance_after bigint not null,
  held_after bigint not null,
  run_id text,
  record_id text,
  hold_id text,
  idempotency_key text,
  reason text,
  at timestamptz not null,
  primary key (workspace_id, seq)
);
create unique index imported_credit_entries_id_key on imported_credit_entries (workspace_id, id);
`,
};
