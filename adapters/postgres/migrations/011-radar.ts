/**
 * Radar (docs/decisions/026-radar-runs.md): searches, runs with their trace steps and claimed
 * results, monitors. A run and a monitor are kept whole as jsonb beside the columns their
 * queries filter and order on, written together by one compare-and-set update on `version`.
 * Steps and results are unique per run (`seq`, `provider_id`): the keys that make appends and
 * claims race-free. Every row cascades with its workspace.
 */
export default {
  version: 11,
  name: "radar",
  sql: /* sql */ `
create table radar_searches (
  workspace_id uuid not null references workspaces (id) on delete cascade,
  id uuid not null,
  doc jsonb not null,
  primary key (workspace_id, id)
);

create table radar_runs (
  workspace_id uuid not null references workspaces (id) on delete cascade,
  id uuid not null,
  search_id uuid not null,
  state text not null,
  lease_until timestamptz,
  updated_at timestamptz not null,
  version integer not null,
  doc jsonb not null,
  primary key (workspace_id, id)
);
-- staleRuns: runs a worker may take over, oldest first.
create index radar_runs_open_idx on radar_runs (updated_at, id) where state in ('queued', 'running');

create table radar_run_steps (
  workspace_id uuid not null references workspaces (id) on delete cascade,
  run_id uuid not null,
  seq integer not null,
  type text not null,
  at timestamptz not null,
  data jsonb not null,
  primary key (workspace_id, run_id, seq)
);

create table radar_run_results (
  workspace_id uuid not null references workspaces (id) on delete cascade,
  run_id uuid not null,
  provider_id text not null,
  position integer not null,
  outcome text not null check (outcome in ('created', 'updated', 'unchanged')),
  doc jsonb not null,
  primary key (workspace_id, run_id, provider_id)
);
create index radar_run_results_position_idx on radar_run_results (workspace_id, run_id, position);

create table radar_monitors (
  workspace_id uuid not null references workspaces (id) on delete cascade,
  id uuid not null,
  search_id uuid not null,
  state text not null,
  next_run_at timestamptz,
  version integer not null,
  doc jsonb not null,
  primary key (workspace_id, id)
);
create unique index radar_monitors_search_key on radar_monitors (workspace_id, search_id);
-- monitorById: the signed webhook knows the id alone.
create unique index radar_monitors_id_key on radar_monitors (id);
-- dueMonitors: active ones by due time.
create index radar_monitors_due_idx on radar_monitors (next_run_at, id) where state = 'active' and next_run_at is not null;

-- Contact paths unlocked per entity and kind, forever: the key claimed before the directory is asked.
create table radar_contact_unlocks (
  workspace_id uuid not null references workspaces (id) on delete cascade,
  entity_id text not null,
  kind text not null check (kind in ('email', 'phone', 'linkedin')),
  state text not null check (state in ('pending', 'unlocked', 'unavailable')),
  value text,
  credits integer not null,
  token uuid not null,
  claimed_at timestamptz not null,
  settled_at timestamptz,
  primary key (workspace_id, entity_id, kind)
);

-- RecordStore.byEntities: the records of some entities in a collection.
create index collection_records_entity_idx on collection_records (workspace_id, collection_id, entity_id) where entity_id is not null;
`,
};
