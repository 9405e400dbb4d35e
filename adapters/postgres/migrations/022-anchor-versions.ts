/**
 * Anchor versions (docs/decisions/038-anchor-index.md): per workspace, a counter that changes in
 * the same transaction as every write inserting a topic with anchors or changing a topic's
 * anchors or repo, so a server may keep a workspace's anchors compiled between requests and
 * know, from one indexed read per request, whether they are still current.
 *
 * Triggers rather than the store's own statements: every path that writes `topics` (insert,
 * update, merge, retag, any later one) bumps it, whether or not its author thought of anchors.
 * They are deferred constraint triggers, so the counter's row lock is taken at commit, as the
 * transaction's last step: concurrent topic writes of a workspace queue on it only for their
 * commits, and no lock order with the topic and tag rows they lock first can deadlock.
 * Deletions do not bump it: a deleted topic's anchors may stay cached, since the topics matched
 * are read again (and a missing one dropped) on every request.
 */
export default {
  version: 22,
  name: "anchor-versions",
  sql: /* sql */ `
create table anchor_versions (
  workspace_id uuid primary key references workspaces (id) on delete cascade,
  version bigint not null
);

create function bump_anchor_version() returns trigger language plpgsql as $$
begin
  insert into anchor_versions (workspace_id, version) values (new.workspace_id, 1)
  on conflict (workspace_id) do update set version = anchor_versions.version + 1;
  return null;
end
$$;

create constraint trigger topics_anchor_version_insert after insert on topics
  deferrable initially deferred for each row
  when (cardinality(new.anchors) > 0)
  execute function bump_anchor_version();

create constraint trigger topics_anchor_version_update after update on topics
  deferrable initially deferred for each row
  when (old.anchors is distinct from new.anchors or old.repo_id is distinct from new.repo_id)
  execute function bump_anchor_version();
`,
};
