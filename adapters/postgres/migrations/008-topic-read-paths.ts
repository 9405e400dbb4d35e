/**
 * Read paths the 100k-topic benchmark showed were slow (bench/README.md):
 * - a list filtered by one tag counted every matching row for its `total`: `tags.live_count`
 *   (topics carrying the tag that are not archived) is kept by every topic write, as
 *   `topic_count` is, and answers that count from one row;
 * - search scored every match to rank them: it now ranks topics with a query word in their title
 *   or tags (score above the word count; GIN on the term arrays), then body-only matches (score
 *   exactly the word count) straight off an index in trust order, stopping at the page.
 */
export default {
  version: 8,
  name: "topic-read-paths",
  sql: /* sql */ `
alter table tags add column live_count integer not null default 0;
update tags g set live_count = c.n
from (
  select t.workspace_id, u.name, count(*)::int as n
  from topics t, unnest(t.tags) as u (name)
  where t.status <> 'archived'
  group by t.workspace_id, u.name
) c
where g.workspace_id = c.workspace_id and g.name = c.name;

create index topics_title_terms_idx on topics using gin (workspace_id, title_terms);
create index topics_tag_terms_idx on topics using gin (workspace_id, tag_terms);
create index topics_rank_idx on topics (workspace_id, trust_rank desc, updated_at desc, id desc) where status <> 'archived';
`,
};
