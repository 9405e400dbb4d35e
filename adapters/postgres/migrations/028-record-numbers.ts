/**
 * A record's JSON numbers, typed once at write (docs/decisions/039-declared-aggregates.md, "ad-hoc
 * aggregates").
 *
 * `collection_records.numbers` holds the top-level fields of `fields` whose value is a JSON
 * number, and nothing else: `{"amount": 7300}` for `{"company": "Acme", "amount": 7300}`. A query
 * reads a field as a number (`typedValue`: a number, else none) with `(numbers ->> $k)::float8`,
 * the same digits parsed the same way as `fields ->> $k`, without first extracting the value from
 * `fields` as a jsonb to check its type: that extraction was a third of an ad-hoc aggregate's
 * instructions (bench/README.md). A stored generated column: computed by PostgreSQL on every
 * insert and update of `fields`, whichever statement writes it, so it cannot disagree with them.
 * Adding it rewrites the table once.
 */
export default {
  version: 28,
  name: "record-numbers",
  sql: /* sql */ `
create function record_numbers(fields jsonb) returns jsonb
language sql immutable parallel safe as $$
  select coalesce(jsonb_object_agg(key, value), '{}'::jsonb) from jsonb_each(case when jsonb_typeof(fields) = 'object' then fields else '{}' end) where jsonb_typeof(value) = 'number'
$$;
alter table collection_records add column numbers jsonb not null generated always as (record_numbers(fields)) stored;
`,
};
