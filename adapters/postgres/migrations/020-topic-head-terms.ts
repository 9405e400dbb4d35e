/**
 * Search's ordered postings (docs/decisions/036-search-head-postings.md): one row per live topic
 * and distinct word of its title or tags, keyed in search order for that word: the field's weight
 * (title 3, tags 2: the best field, as `scoreTopic` counts it), then trust, recency and id. A
 * one-word search reads its first page of title and tag hits as one backward range of this key,
 * however many topics hold the word, instead of fetching and ranking every one of them.
 *
 * The rows are derived from the topic row alone (`title_terms`, `tag_terms`, `trust_rank`,
 * `updated_at`, `status`), so a trigger keeps them, in the statement that writes the topic: every
 * write path (insert, edit, review, retag, merge, delete, a workspace's deletion cascading to its
 * topics) is covered, on PostgreSQL and PGlite alike, and none can forget it. Archived topics have
 * none (search never returns them). A row is deleted by its whole key, read off the old topic row,
 * so no second index is needed.
 */
export default {
  version: 20,
  name: "topic-head-terms",
  sql: /* sql */ `
create table topic_head_terms (
  workspace_id uuid not null,
  term text collate "C" not null,
  -- 3: the word is in the title; 2: in the tags only.
  weight smallint not null,
  trust_rank smallint not null,
  updated_at timestamptz not null,
  topic_id uuid not null,
  -- Scanned backward: weight, trust, recency, id, all descending (compareRanked for one word).
  primary key (workspace_id, term, weight, trust_rank, updated_at, topic_id)
);

create function topic_head_terms_sync() returns trigger language plpgsql as $$
begin
  if tg_op = 'UPDATE' and new.title_terms = old.title_terms and new.tag_terms = old.tag_terms
     and new.trust_rank = old.trust_rank and new.updated_at = old.updated_at and new.status = old.status then
    return null;
  end if;
  if tg_op in ('UPDATE', 'DELETE') and old.status <> 'archived' then
    delete from topic_head_terms h
    using (select distinct u.term from unnest(old.title_terms || old.tag_terms) as u (term)) o
    where h.workspace_id = old.workspace_id and h.term = o.term
      and h.weight = case when o.term = any(old.title_terms) then 3 else 2 end
      and h.trust_rank = old.trust_rank and h.updated_at = old.updated_at and h.topic_id = old.id;
  end if;
  if tg_op in ('INSERT', 'UPDATE') and new.status <> 'archived' then
    insert into topic_head_terms (workspace_id, term, weight, trust_rank, updated_at, topic_id)
    select new.workspace_id, n.term, case when n.term = any(new.title_terms) then 3 else 2 end,
           new.trust_rank, new.updated_at, new.id
    from (select distinct u.term from unnest(new.title_terms || new.tag_terms) as u (term)) n;
  end if;
  return null;
end
$$;

create trigger topic_head_terms_sync after insert or update or delete on topics
  for each row execute function topic_head_terms_sync();

insert into topic_head_terms (workspace_id, term, weight, trust_rank, updated_at, topic_id)
select t.workspace_id, n.term, case when n.term = any(t.title_terms) then 3 else 2 end, t.trust_rank, t.updated_at, t.id
from topics t, lateral (select distinct u.term from unnest(t.title_terms || t.tag_terms) as u (term)) n
where t.status <> 'archived';
`,
};
