/**
 * Topic versions (docs/decisions/047-topic-read-cache.md): per workspace, a counter that moves in
 * the same transaction as every write of one of its topics (insert, update, delete: any column),
 * so a server may keep the answers of topic reads (a tag's page, a search) and know, from one
 * indexed read per request, whether they still hold.
 *
 * As `anchor_versions` (migration 022): deferred constraint triggers, so every path writing
 * `topics` moves it and its row lock is taken at commit, as the transaction's last step. One
 * move per transaction (`xact`): a statement rewriting 30,000 topics bumps it once. Named
 * `topic_version_*` so that, for one row, it fires before `topics_anchor_version_*` (triggers of
 * one event fire in name order): every transaction locks this row before the anchor row, and
 * two transactions cannot wait on each other in opposite orders.
 *
 * The workspace deleted in the same transaction (its topics going by cascade) is skipped: its
 * row went with it, and inserting one would break the foreign key. A concurrent first write of
 * a workspace inserts or bumps (`on conflict do update`), so no transaction's change is ever left
 * without a move of its own.
 */
export default {
  version: 30,
  name: "topic-versions",
  sql: /* sql */ `
create table topic_versions (
  workspace_id uuid primary key references workspaces (id) on delete cascade,
  version bigint not null,
  xact xid8 not null
);

create function bump_topic_version() returns trigger language plpgsql as $$
declare
  ws uuid := case when tg_op = 'DELETE' then old.workspace_id else new.workspace_id end;
begin
  insert into topic_versions as v (workspace_id, version, xact)
  select ws, 1, pg_current_xact_id() where exists (select 1 from workspaces where id = ws)
  on conflict (workspace_id) do update set version = v.version + 1, xact = excluded.xact
  where v.xact <> excluded.xact;
  return null;
end
$$;

create constraint trigger topic_version_write after insert or update or delete on topics
  deferrable initially deferred for each row
  execute function bump_topic_version();
`,
};
