/**
 * What each retrieval session was given (POST /topics/retrieve), so a topic is not sent twice.
 * Rows outlive nothing: a record() forgets the workspace's rows older than the retention window.
 */
export default {
  version: 7,
  name: "retrieval-deliveries",
  sql: /* sql */ `
create table retrieval_deliveries (
  workspace_id uuid not null references workspaces (id) on delete cascade,
  session_id text not null,
  topic_id uuid not null,
  version integer not null,
  delivered_at timestamptz not null,
  primary key (workspace_id, session_id, topic_id)
);
create index retrieval_deliveries_age_idx on retrieval_deliveries (workspace_id, delivered_at);
`,
};
