/**
 * Credits (docs/decisions/021-credit-ledger.md): each workspace's account (running totals, the
 * row every write locks) and its append-only ledger, and the answers kept for Idempotency-Keys.
 *
 * The account's check constraints state the invariant; the stores never rely on them alone: a
 * write is one guarded `update … where balance + amount - (held + held_change) >= 0` and the entry
 * insert, in one transaction. An optional key is unique where present (`idempotency_key`, and
 * `hold_id` on the one entry that resolves a hold).
 */
export default {
  version: 10,
  name: "credits",
  sql: /* sql */ `
create table credit_accounts (
  workspace_id uuid primary key references workspaces (id) on delete cascade,
  balance bigint not null default 0,
  held bigint not null default 0,
  seq bigint not null default 0,
  check (held >= 0),
  check (balance - held >= 0)
);

create table credit_entries (
  workspace_id uuid not null references workspaces (id) on delete cascade,
  seq bigint not null,
  id uuid not null,
  type text not null check (type in ('grant', 'hold', 'capture', 'release', 'debit')),
  amount bigint not null,
  held bigint not null,
  balance_after bigint not null check (balance_after >= held_after),
  held_after bigint not null check (held_after >= 0),
  run_id text,
  record_id text,
  hold_id uuid,
  idempotency_key text,
  reason text,
  at timestamptz not null,
  primary key (workspace_id, seq)
);
create unique index credit_entries_id_key on credit_entries (workspace_id, id);
create unique index credit_entries_idempotency_key on credit_entries (workspace_id, idempotency_key) where idempotency_key is not null;
-- A hold resolves once.
create unique index credit_entries_hold_key on credit_entries (workspace_id, hold_id) where hold_id is not null;
-- History filtered by type or by run, newest first.
create index credit_entries_type_idx on credit_entries (workspace_id, type, seq desc);
create index credit_entries_run_idx on credit_entries (workspace_id, run_id, seq desc) where run_id is not null;

create table idempotency_keys (
  workspace_id uuid not null references workspaces (id) on delete cascade,
  scope text not null,
  key text not null,
  fingerprint text not null,
  state text not null check (state in ('pending', 'done')),
  status integer,
  body jsonb,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  primary key (workspace_id, scope, key)
);
`,
};
