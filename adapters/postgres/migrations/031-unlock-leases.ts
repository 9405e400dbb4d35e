/**
 * The leases of contact unlocks' holds (docs/decisions/055-unlock-hold-sweep.md): a row from the
 * begin that holds the credits until the finish that resolves them, written and deleted in those
 * same statements, so a row exists exactly while its unlock's hold is unresolved. The sweep reads
 * the rows whose lease ended (by `lease_until`, across workspaces like the due monitors) and
 * resolves their holds; `entity_ids`/`kinds` are the keys the begin asked for, so dropping the dead
 * request's pending claims goes by the claims' primary key.
 *
 * Holds of unlocks left unresolved before this migration (a request that died; a crash of
 * PostgreSQL left some, ADR 055) get a lease that ended a minute after their hold, with the keys
 * their token claimed: the first sweep resolves them.
 */
export default {
  version: 31,
  name: "unlock-leases",
  sql: /* sql */ `
create table radar_unlock_leases (
  workspace_id uuid not null references workspaces (id) on delete cascade,
  token uuid not null,
  lease_until timestamptz not null,
  entity_ids text[] not null,
  kinds text[] not null,
  primary key (workspace_id, token)
);
-- expiredUnlocks: the sweep's leases by their end.
create index radar_unlock_leases_until_idx on radar_unlock_leases (lease_until);

insert into radar_unlock_leases (workspace_id, token, lease_until, entity_ids, kinds)
select h.workspace_id, h.id, h.at + interval '60 seconds', coalesce(k.entity_ids, '{}'), coalesce(k.kinds, '{}')
from credit_entries h
left join lateral (
  select array_agg(c.entity_id order by c.entity_id, c.kind) as entity_ids, array_agg(c.kind order by c.entity_id, c.kind) as kinds
  from radar_contact_unlocks c where c.workspace_id = h.workspace_id and c.token = h.id
) k on true
where h.type = 'hold' and h.run_id is null and h.reason = 'contact unlock'
  and not exists (select 1 from credit_entries x where x.workspace_id = h.workspace_id and x.hold_id = h.id);
`,
};
