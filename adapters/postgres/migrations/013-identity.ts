/**
 * Identity (docs/decisions/028-identity-store.md): OAuth clients (global), authorization codes,
 * grants and their tokens (tenant data: each cascades from its workspace, tokens through their
 * grant), dashboard sessions and OpenID Connect links (a person's, global). Codes and tokens are
 * looked up by their hash alone, through a unique index of their own (like `api_keys.key_hash`);
 * every other index starts with `workspace_id`, but a person's grants and sessions across
 * workspaces (deactivation, sign-out everywhere).
 *
 * Concurrency rests on guarded updates: a code is spent by `update … where spent_at is null`, a
 * refresh token rotated by `update … where rotated_at is null`; of concurrent ones, one matches.
 */
export default {
  version: 13,
  name: "identity",
  sql: /* sql */ `
create table oauth_clients (
  client_id text primary key,
  client_name text,
  redirect_uris text[] not null,
  client_uri text,
  logo_uri text,
  token_endpoint_auth_method text not null check (token_endpoint_auth_method in ('none', 'client_secret_basic', 'client_secret_post')),
  grant_types text[] not null,
  response_types text[] not null,
  scope text,
  secret_hash text,
  created_at timestamptz not null
);

create table oauth_codes (
  workspace_id uuid not null references workspaces (id) on delete cascade,
  code_hash text not null,
  grant_id uuid not null,
  client_id text not null references oauth_clients (client_id),
  identity_id uuid not null references identities (id),
  issuer text not null,
  redirect_uri text not null,
  scopes text[] not null,
  code_challenge text not null,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  spent_at timestamptz,
  reused_at timestamptz,
  primary key (workspace_id, code_hash)
);
create unique index oauth_codes_hash_key on oauth_codes (code_hash);

create table oauth_grants (
  workspace_id uuid not null references workspaces (id) on delete cascade,
  id uuid not null,
  identity_id uuid not null references identities (id),
  client_id text not null references oauth_clients (client_id),
  scopes text[] not null,
  issuer text not null,
  created_at timestamptz not null,
  last_used_at timestamptz,
  revoked_at timestamptz,
  primary key (workspace_id, id)
);
-- Live grants newest first: all of a workspace, or one person's there; a person's everywhere.
create index oauth_grants_live_idx on oauth_grants (workspace_id, id desc) where revoked_at is null;
create index oauth_grants_person_live_idx on oauth_grants (workspace_id, identity_id, id desc) where revoked_at is null;
create index oauth_grants_identity_live_idx on oauth_grants (identity_id) where revoked_at is null;

create table oauth_tokens (
  workspace_id uuid not null,
  token_hash text not null,
  kind text not null check (kind in ('access', 'refresh')),
  grant_id uuid not null,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  revoked_at timestamptz,
  rotated_at timestamptz,
  primary key (workspace_id, token_hash),
  foreign key (workspace_id, grant_id) references oauth_grants (workspace_id, id) on delete cascade
);
create unique index oauth_tokens_hash_key on oauth_tokens (token_hash);
create index oauth_tokens_grant_idx on oauth_tokens (workspace_id, grant_id);

create table auth_sessions (
  id text primary key,
  identity_id uuid not null references identities (id),
  created_at timestamptz not null,
  expires_at timestamptz not null
);
create index auth_sessions_identity_idx on auth_sessions (identity_id);

create table identity_links (
  issuer text not null,
  subject text not null,
  identity_id uuid not null references identities (id),
  email text not null,
  created_at timestamptz not null,
  deactivated_at timestamptz,
  primary key (issuer, subject)
);
create unique index identity_links_person_key on identity_links (issuer, identity_id);
`,
};
