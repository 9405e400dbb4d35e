/**
 * Workspaces, identities and the tenant tables of the workspaces and access modules.
 *
 * Tenancy rule (ADR 001): every tenant table carries `workspace_id`, and its primary
 * key, unique keys and indexes start with it, so tenant queries are scoped by construction and the
 * tables can later be distributed by `workspace_id` (Citus). `workspaces` and `identities` are
 * global. Each tenant table references its workspace with ON DELETE CASCADE, so deleting the
 * workspace row deletes its tenant data; the cascades are served by the primary keys.
 */
export default {
  version: 1,
  name: "workspaces",
  sql: /* sql */ `
create table workspaces (
  id uuid primary key,
  slug text not null,
  name text not null,
  plan text not null,
  settings jsonb not null,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  constraint workspaces_slug_key unique (slug)
);

-- A person. Global, not tenant data: one identity may belong to many workspaces.
create table identities (
  id uuid primary key,
  email text not null,
  name text,
  created_at timestamptz not null,
  constraint identities_email_key unique (email)
);

create table members (
  workspace_id uuid not null references workspaces (id) on delete cascade,
  id uuid not null,
  identity_id uuid not null references identities (id),
  role text not null check (role in ('owner', 'admin', 'member')),
  created_at timestamptz not null,
  updated_at timestamptz not null,
  primary key (workspace_id, id),
  constraint members_identity_key unique (workspace_id, identity_id)
);
-- Lists, oldest first.
create index members_workspace_created_idx on members (workspace_id, created_at, id);
-- Counting owners for the last-owner rule.
create index members_workspace_role_idx on members (workspace_id, role);
-- Exception to the tenancy rule: "which workspaces is this person in" (GET /me) asks across
-- workspaces by identity. Sharded, it is a fan-out served by this index on every shard.
create index members_identity_created_idx on members (identity_id, created_at, id);

create table api_keys (
  workspace_id uuid not null references workspaces (id) on delete cascade,
  id uuid not null,
  name text not null,
  prefix text not null,
  -- The person the key acts as, null for a service key. No foreign key: a key may name an
  -- identity whose membership is gone (authentication then refuses it).
  identity_id uuid,
  created_by uuid,
  key_hash text not null,
  key_ciphertext text not null,
  created_at timestamptz not null,
  last_used_at timestamptz,
  primary key (workspace_id, id)
);
-- Exception to the tenancy rule: authentication starts from the raw key alone, before any
-- workspace is known, so the hash must be unique and found in one lookup across all workspaces.
-- A SHA-256 of 200 random bits cannot collide between tenants in practice; the unique index
-- makes that a guarantee. (Sharded, this table's hash lookup moves to a global reference table.)
create unique index api_keys_key_hash_key on api_keys (key_hash);
-- Lists, newest first, whole workspace or one identity's keys; deleting a member's keys.
create index api_keys_workspace_created_idx on api_keys (workspace_id, created_at desc, id desc);
create index api_keys_workspace_identity_idx on api_keys (workspace_id, identity_id, created_at desc, id desc);

create table areas (
  workspace_id uuid not null references workspaces (id) on delete cascade,
  id uuid not null,
  name text not null,
  description text,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  primary key (workspace_id, id),
  constraint areas_name_key unique (workspace_id, name)
);
create index areas_workspace_created_idx on areas (workspace_id, created_at, id);

create table repos (
  workspace_id uuid not null references workspaces (id) on delete cascade,
  id uuid not null,
  provider text not null,
  full_name text not null,
  default_branch text not null,
  clone_url text,
  created_at timestamptz not null,
  primary key (workspace_id, id),
  constraint repos_provider_full_name_key unique (workspace_id, provider, full_name)
);
create index repos_workspace_created_idx on repos (workspace_id, created_at, id);
`,
};
