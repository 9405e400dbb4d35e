/**
 * Code context (docs/decisions/010-code-context.md): repos' file indexes, the lookup of
 * repos by full name for the code-host webhook, and the webhook deliveries already seen.
 *
 * `repo_indexes` holds one row per repo: its default branch's paths at one commit as ONE `text[]`
 * value (50,000 paths are a couple of MB, stored compressed out of line), replaced whole by each
 * refresh; `file_count` lets the small "head" read skip the list. It goes with its repo (foreign
 * key, cascade), and so with its workspace.
 *
 * Two exceptions to the tenancy rule, like `api_keys.key_hash`: the code-host webhook names a
 * repository (`acme/api`), not a workspace, so `repos (full_name)` is indexed on its own; and
 * `webhook_deliveries` is global (a delivery arrives before any workspace is known, and may
 * concern several), keyed by (source, delivery_id) so a redelivery's insert is refused.
 */
export default {
  version: 6,
  name: "code-index",
  sql: /* sql */ `
create table repo_indexes (
  workspace_id uuid not null,
  repo_id uuid not null,
  commit_sha text not null,
  files text[] not null,
  file_count integer not null,
  refreshed_at timestamptz not null,
  primary key (workspace_id, repo_id),
  foreign key (workspace_id, repo_id) references repos (workspace_id, id) on delete cascade
);

create index repos_full_name_idx on repos (full_name, created_at, id);

create table webhook_deliveries (
  source text not null,
  delivery_id text not null,
  received_at timestamptz not null,
  primary key (source, delivery_id)
);
create index webhook_deliveries_received_idx on webhook_deliveries (received_at);
`,
};
