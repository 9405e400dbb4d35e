/**
 * Suggested edits (proposals) and typed relations between topics (ADR 009), and what the graph's
 * ETag is read from.
 *
 * Same tenancy rule as 001: every table carries `workspace_id`, every key and index starts with
 * it, and the workspace row's deletion cascades. Both tables reference their topics, so deleting
 * a topic deletes its proposals (their patches hold its text) and its relations.
 */
export default {
  version: 4,
  name: "proposals-relations",
  sql: /* sql */ `
create table topic_proposals (
  workspace_id uuid not null references workspaces (id) on delete cascade,
  id uuid not null,
  topic_id uuid not null,
  summary text not null,
  -- A JSON Merge Patch over the topic's editable fields (tags normalised by core).
  patch jsonb not null,
  base_version integer not null,
  status text not null check (status in ('open', 'merged', 'rejected')),
  author_id uuid,
  via text not null check (via in ('human', 'agent')),
  created_at timestamptz not null,
  decided_at timestamptz,
  decided_by uuid,
  merged_version integer,
  primary key (workspace_id, id),
  foreign key (workspace_id, topic_id) references topics (workspace_id, id) on delete cascade
);
-- A topic's proposals, newest first (a status filter reads the same range: a topic has few).
create index topic_proposals_topic_idx on topic_proposals (workspace_id, topic_id, created_at desc, id desc);
-- The review queue (open ones, oldest first) and other status lists.
create index topic_proposals_status_idx on topic_proposals (workspace_id, status, created_at, id);

create table topic_relations (
  workspace_id uuid not null references workspaces (id) on delete cascade,
  id uuid not null,
  from_topic_id uuid not null,
  to_topic_id uuid not null,
  type text not null check (type in ('depends_on', 'part_of', 'supersedes', 'contradicts', 'relates_to')),
  -- core's relationKey(from, to, type): what makes two relations the same one (for a symmetric
  -- type, the pair in either order). Unique, so concurrent duplicates cannot both land.
  key text not null,
  created_at timestamptz not null,
  created_by uuid,
  primary key (workspace_id, id),
  constraint topic_relations_key unique (workspace_id, key),
  constraint topic_relations_not_self check (from_topic_id <> to_topic_id),
  foreign key (workspace_id, from_topic_id) references topics (workspace_id, id) on delete cascade,
  foreign key (workspace_id, to_topic_id) references topics (workspace_id, id) on delete cascade
);
-- A topic's relations in both directions (a bitmap OR of the two), and the cascades.
create index topic_relations_from_idx on topic_relations (workspace_id, from_topic_id, created_at, id);
create index topic_relations_to_idx on topic_relations (workspace_id, to_topic_id, created_at, id);
-- The full graph's edges, oldest first.
create index topic_relations_created_idx on topic_relations (workspace_id, created_at, id);

-- Advanced in the transaction of every relation change: part of the full graph's ETag, so a
-- relation change is seen without reading the relations.
create table topic_relation_markers (
  workspace_id uuid primary key references workspaces (id) on delete cascade,
  marker bigint not null
);

-- The graph ETag's stale count: reviewed topics approved before an instant.
create index topics_reviewed_approved_idx on topics (workspace_id, approved_at) where status = 'reviewed';
`,
};
