/**
 * Topics, their old slugs, their events (history and workspace timeline) and the tag registry.
 *
 * Same tenancy rule as 001: every table carries `workspace_id`, every key and index starts with
 * it, and the workspace row's deletion cascades. Multi-column GIN indexes need `btree_gin` for
 * the leading uuid (PGlite loads it as an extension; a server ships it in contrib).
 *
 * Search does not use a text-search parser: the store computes each field's terms with core's
 * tokenizer (`topicTerms`) and stores them as arrays and as `search`, a tsvector built from the
 * arrays with `array_to_tsvector` (title weight A, tags B, body C). Every backend thus finds the
 * same topics for the same terms, and the score (best field per term) is read off the arrays.
 *
 * List order is `compareListed`: `drifted` desc, `trust_rank` desc, `updated_at` desc, `id` desc.
 * `trust_rank` is written by the store from core's `trustRank`, `drifted` is generated.
 */
export default {
  version: 2,
  name: "topics",
  sql: /* sql */ `
create extension if not exists btree_gin;

create table topics (
  workspace_id uuid not null references workspaces (id) on delete cascade,
  id uuid not null,
  slug text not null,
  title text not null,
  body text not null,
  -- Sorted, distinct, normalised names (core's sortedTags).
  tags text[] not null,
  area_id uuid,
  repo_id uuid,
  kind text not null check (kind in ('note', 'doc')),
  origin text not null check (origin in ('manual', 'auto')),
  source_url text,
  owner_id uuid,
  author_id uuid,
  status text not null check (status in ('draft', 'proposed', 'reviewed', 'archived')),
  -- governance
  authoritative boolean not null,
  approved_by uuid,
  approved_at timestamptz,
  approved_via text check (approved_via in ('human', 'agent')),
  drift jsonb,
  merged_into uuid,
  merged_from uuid[] not null,
  version integer not null,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  -- derived, written with every version
  trust_rank smallint not null,
  drifted boolean not null generated always as (drift is not null) stored,
  title_terms text[] not null,
  tag_terms text[] not null,
  search tsvector not null,
  primary key (workspace_id, id),
  -- A live topic's slug; also what "slug_taken" is told by.
  constraint topics_slug_key unique (workspace_id, slug)
);
-- The default list (every status but archived), in list order: a page is an index range.
create index topics_list_idx on topics (workspace_id, drifted desc, trust_rank desc, updated_at desc, id desc)
  where status <> 'archived';
-- The list of one status (archived included), in list order.
create index topics_status_list_idx on topics (workspace_id, status, drifted desc, trust_rank desc, updated_at desc, id desc);
-- Tag filters (any-of, tags && $n) and a retag's "every topic carrying the tag".
create index topics_tags_idx on topics using gin (workspace_id, tags);
-- The repo filter (and the topics anchored to a repo, ADR 010), in list order.
create index topics_repo_list_idx on topics (workspace_id, repo_id, drifted desc, trust_rank desc, updated_at desc, id desc)
  where repo_id is not null;
-- Search (search @@ $n::tsquery).
create index topics_search_idx on topics using gin (workspace_id, search);

-- Old slugs a move left behind, each naming the topic it now answers with. Deleting the topic
-- deletes them.
create table topic_redirects (
  workspace_id uuid not null references workspaces (id) on delete cascade,
  slug text not null,
  topic_id uuid not null,
  primary key (workspace_id, slug),
  foreign key (workspace_id, topic_id) references topics (workspace_id, id) on delete cascade
);
create index topic_redirects_topic_idx on topic_redirects (workspace_id, topic_id);

-- One row per change of a topic. No foreign key to topics: the timeline outlives a deleted
-- topic (its rows lose their snapshot, so its text goes with it).
create table topic_events (
  workspace_id uuid not null references workspaces (id) on delete cascade,
  id uuid not null,
  topic_id uuid not null,
  topic_slug text not null,
  repo_id uuid,
  type text not null,
  version integer not null,
  actor_id uuid,
  via text not null check (via in ('human', 'agent')),
  at timestamptz not null,
  data jsonb not null,
  snapshot jsonb,
  primary key (workspace_id, id),
  -- Also serves a topic's history (newest version first) and nulling its snapshots.
  constraint topic_events_version_key unique (workspace_id, topic_id, version)
);
-- The timeline, newest first: whole workspace, one type, one repo.
create index topic_events_timeline_idx on topic_events (workspace_id, at desc, id desc);
create index topic_events_type_idx on topic_events (workspace_id, type, at desc, id desc);
create index topic_events_repo_idx on topic_events (workspace_id, repo_id, at desc, id desc) where repo_id is not null;

-- The tag registry. topic_count (archived topics included) is kept by the topic store in the
-- transaction of every topic write. Names compare bytewise ("C"), as core sorts them.
create table tags (
  workspace_id uuid not null references workspaces (id) on delete cascade,
  name text collate "C" not null,
  description text,
  topic_count integer not null default 0,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  primary key (workspace_id, name)
);
-- Most-used first, then by name.
create index tags_usage_idx on tags (workspace_id, topic_count desc, name);
`,
};
