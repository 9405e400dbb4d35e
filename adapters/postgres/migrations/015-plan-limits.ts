/**
 * Plan limits (docs/decisions/031-plan-limits.md): one counter per workspace and limited kind
 * (members, topics, collections, records). A counter row is created the first time it is touched,
 * from an exact count of the items; a create's claim is one guarded
 * `update … set used = used + n where used + n <= limit`, evaluated on the locked row, so of
 * concurrent claims at one below the limit exactly one is taken.
 */
export default {
  version: 15,
  name: "plan-limits",
  sql: /* sql */ `
create table plan_usage (
  workspace_id uuid not null references workspaces (id) on delete cascade,
  kind text not null check (kind in ('members', 'topics', 'collections', 'records')),
  used bigint not null check (used >= 0),
  primary key (workspace_id, kind)
);
`,
};
