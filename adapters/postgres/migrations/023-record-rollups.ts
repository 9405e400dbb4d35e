/**
 * Rollups of the aggregates views declare (docs/decisions/039-declared-aggregates.md).
 *
 * `record_rollups` holds each declared aggregate's shape (group keys, summed fields) as the
 * collection store last stored the collection; `record_rollup_groups` one row per group: its key
 * (a JSON array, a value per group key, JSON null for none), record count, and per summed field the
 * exact sum (numeric: adding and removing never drifts) and the count of its numbers.
 *
 * Statement triggers on `collection_records` keep the groups in step with every write, in the
 * write's own transaction, whatever statement made it (the record store's insert, update, delete,
 * a workspace's cascade). Each reads the shapes with a fresh snapshot, and every writer holds the
 * collection row `for key share` by then: an insert through its foreign key check (a row trigger,
 * fired before statement triggers), the store's update and delete by taking it first
 * (record-store.ts), before the record row, so that a purge (which holds the collection and then
 * deletes records) never waits in a cycle with them. A collection update that changes the
 * declarations holds that row `for update` while it rebuilds, so a write lands either before the
 * rebuild (which waits for it and counts it) or after (and finds the new shape and its groups).
 * A write that changes no group's figures touches no group row; a collection that declares
 * nothing costs each write statement one index probe of `record_rollups`.
 */
const changedFrom = {
  insert: `select workspace_id, collection_id, fields, status, entity_id, drifted, 1 as sign from new_rows`,
  update: `select workspace_id, collection_id, fields, status, entity_id, drifted, 1 as sign from new_rows
           union all select workspace_id, collection_id, fields, status, entity_id, drifted, -1 from old_rows`,
  delete: `select workspace_id, collection_id, fields, status, entity_id, drifted, -1 as sign from old_rows`,
};

function applyFunction(op: keyof typeof changedFrom): string {
  return /* sql */ `
create or replace function record_rollups_on_${op}() returns trigger language plpgsql as $$
declare emptied boolean;
begin
  if not exists (select 1 from record_rollups d
                 where (d.workspace_id, d.collection_id) in (select distinct workspace_id, collection_id from (${changedFrom[op]}) s)) then
    return null;
  end if;
  with changed as (${changedFrom[op]}),
  c as (
    select r.workspace_id, r.collection_id, d.id as rollup, d.shape -> 'sums' as summed, r.fields, r.sign,
           record_rollup_key(r.fields, r.status, r.entity_id, r.drifted, d.shape -> 'keys') as key
    from changed r
    join record_rollups d on d.workspace_id = r.workspace_id and d.collection_id = r.collection_id
  ),
  g as (
    select workspace_id, collection_id, rollup, key, sum(sign)::bigint as n from c group by 1, 2, 3, 4
  ),
  m as (
    select c.workspace_id, c.collection_id, c.rollup, c.key, s.i,
           sum(c.sign * coalesce(record_rollup_number(c.fields, s.f), 0)) as total,
           sum(case when record_rollup_number(c.fields, s.f) is null then 0 else c.sign end)::bigint as cnt
    from c cross join lateral jsonb_array_elements_text(c.summed) with ordinality s(f, i)
    group by 1, 2, 3, 4, 5
  ),
  d as (
    select g.*,
           coalesce((select array_agg(m.total order by m.i) from m
                     where (m.workspace_id, m.collection_id, m.rollup, m.key) = (g.workspace_id, g.collection_id, g.rollup, g.key)), '{}') as sums,
           coalesce((select array_agg(m.cnt order by m.i) from m
                     where (m.workspace_id, m.collection_id, m.rollup, m.key) = (g.workspace_id, g.collection_id, g.rollup, g.key)), '{}') as counts
    from g
  ),
  up as (
  insert into record_rollup_groups as t (workspace_id, collection_id, rollup, key, n, sums, counts)
  select workspace_id, collection_id, rollup, key, n, sums, counts from d
  where n <> 0 or exists (select 1 from unnest(sums, counts) u(s, k) where s <> 0 or k <> 0)
  on conflict (workspace_id, collection_id, rollup, key) do update set
    n = t.n + excluded.n,
    sums = (select coalesce(array_agg(coalesce(a, 0) + coalesce(b, 0) order by i), '{}') from unnest(t.sums, excluded.sums) with ordinality u(a, b, i)),
    counts = (select coalesce(array_agg(coalesce(a, 0) + coalesce(b, 0) order by i), '{}') from unnest(t.counts, excluded.counts) with ordinality u(a, b, i))
  returning t.n)
  select exists (select 1 from up where n = 0) into emptied;
  -- A group left without records is no group.
  if emptied then
    delete from record_rollup_groups
      where n = 0 and (workspace_id, collection_id) in (select distinct workspace_id, collection_id from (${changedFrom[op]}) s);
  end if;
  return null;
end
$$;`;
}

export default {
  version: 23,
  name: "record-rollups",
  sql: /* sql */ `
create table record_rollups (
  workspace_id uuid not null,
  collection_id uuid not null,
  -- "<view name>/<aggregate name>"
  id text collate "C" not null,
  -- {"keys": [{"column": "status"} | {"field": "x", "json": "string"|"number"|"boolean"|"any"}], "sums": ["field", ...]}
  shape jsonb not null,
  primary key (workspace_id, collection_id, id),
  foreign key (workspace_id, collection_id) references collections (workspace_id, id) on delete cascade
);

create table record_rollup_groups (
  workspace_id uuid not null,
  collection_id uuid not null,
  rollup text collate "C" not null,
  key jsonb not null,
  n bigint not null,
  sums numeric[] not null,
  counts bigint[] not null,
  -- A rollup's groups are a range of this key; an upsert finds its group by it.
  primary key (workspace_id, collection_id, rollup, key),
  foreign key (workspace_id, collection_id, rollup) references record_rollups (workspace_id, collection_id, id) on delete cascade
);
-- Emptied groups, found and removed after each write.
create index record_rollup_groups_empty on record_rollup_groups (workspace_id, collection_id) where n = 0;

-- A group key's value of a record, typed as the aggregate reads it (record-aggregate.ts typedValue):
-- of the declared type (any scalar when undeclared), else null.
create function record_rollup_value(fields jsonb, status text, entity_id text, drifted boolean, k jsonb) returns jsonb
language sql immutable parallel safe as $$
  select case k ->> 'column'
    when 'status' then to_jsonb(status)
    when 'entity_id' then to_jsonb(entity_id)
    when 'drifted' then to_jsonb(drifted)
    else case when jsonb_typeof(fields -> (k ->> 'field')) = any (
                case k ->> 'json' when 'any' then array['string', 'number', 'boolean'] else array[k ->> 'json'] end)
              then fields -> (k ->> 'field') end
  end
$$;

create function record_rollup_key(fields jsonb, status text, entity_id text, drifted boolean, keys jsonb) returns jsonb
language sql immutable parallel safe as $$
  select coalesce(jsonb_agg(coalesce(record_rollup_value(fields, status, entity_id, drifted, k.value), 'null'::jsonb) order by k.ordinality), '[]'::jsonb)
  from jsonb_array_elements(keys) with ordinality k
$$;

-- A field's JSON number, exactly (numeric), else null.
create function record_rollup_number(fields jsonb, field text) returns numeric
language sql immutable parallel safe as $$
  select case when jsonb_typeof(fields -> field) = 'number' then (fields -> field)::numeric end
$$;
${applyFunction("insert")}
${applyFunction("update")}
${applyFunction("delete")}
create trigger record_rollups_insert after insert on collection_records
  referencing new table as new_rows for each statement execute function record_rollups_on_insert();
create trigger record_rollups_update after update on collection_records
  referencing old table as old_rows new table as new_rows for each statement execute function record_rollups_on_update();
create trigger record_rollups_delete after delete on collection_records
  referencing old table as old_rows for each statement execute function record_rollups_on_delete();
`,
};
