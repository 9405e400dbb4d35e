/**
 * The records an unlock's finish writes in its own statement (ADR 056): the values a
 * request pays for reach its records in the same transaction as the capture, so a crash never
 * leaves a paid value on none of them.
 */
import type { UnlockRecordWrite } from "../../../core/contacts/ports.ts";
import { json } from "../row-values.ts";

/** The writes as the statement's one jsonb parameter; `ord` is the request's place in a batch (1 alone). */
export const recordWritesParam = (writes: readonly { ord: number; w: UnlockRecordWrite }[]): string | null =>
  json(writes.map(({ ord, w }) => ({ ord, needs: w.needs, record: w.write.record, change: w.write.change })));

/**
 * CTEs to place after the statement's `settled` CTE (which returns `ord`, `entity_id`, `kind` and
 * `state` of the claims it settled), with `$1` the workspace and `param` the writes: each record
 * write whose keys all settled `unlocked` for its request is applied by compare-and-set on its
 * version, with its history entry, as `RecordStore.update` writes them (one write per record: the
 * first request's in a batch). Locks as the record store takes them: the collection `for key
 * share` first (migration 023), then the records in key order, so two finishes writing the same
 * records never wait on each other in a cycle. `written` returns `ord` and `id` of each record
 * written; the caller makes its account update read `written`, so that the account row, locked
 * last as before, is held only once the records are.
 */
export function recordWritesSql(param: string): string {
  return `rw as (
       select x.ord, x.needs, x.change, r.collection_id, r.id, r.fields, r.status, r.field_meta, r.entity_id, r.drifted,
         r.search_text, r.created_by, r.updated_by, r.version, r.created_at, r.updated_at
       from jsonb_to_recordset(${param}::text::jsonb) as x (ord int, needs text[], record jsonb, change jsonb)
         cross join lateral jsonb_populate_record(null::collection_records, x.record) r
       where r.workspace_id = $1 and cardinality(x.needs) > 0
     ),
     rw_ready as (
       select distinct on (w.collection_id, w.id) w.* from rw w
       where w.needs <@ array(select st.entity_id || ':' || st.kind from settled st where st.ord = w.ord and st.state = 'unlocked')
       order by w.collection_id, w.id, w.ord
     ),
     rw_collections as (
       select 1 from collections where workspace_id = $1 and id = any(array(select collection_id from rw_ready)) for key share
     ),
     rw_locked as (
       select r.collection_id, r.id from collection_records r
       where r.workspace_id = $1 and r.collection_id = any(array(select collection_id from rw_ready))
         and r.id = any(array(select id from rw_ready)) and (select count(*) from rw_collections) > 0
       order by r.collection_id, r.id
       for no key update
     ),
     written as (
       update collection_records r set fields = w.fields, status = w.status, field_meta = w.field_meta, entity_id = w.entity_id,
         drifted = w.drifted, search_text = w.search_text, created_by = w.created_by, updated_by = w.updated_by, version = w.version,
         created_at = w.created_at, updated_at = w.updated_at
       from rw_ready w
       where r.workspace_id = $1 and r.collection_id = any(array(select collection_id from rw_locked))
         and r.id = any(array(select id from rw_locked))
         and r.collection_id = w.collection_id and r.id = w.id and r.version = w.version - 1
       returning w.ord, r.collection_id, r.id, r.version, w.change
     ),
     history as (
       insert into record_changes (workspace_id, record_id, version, collection_id, id, type, actor_id, actor_kind, at, diff, stage, outcome)
       select $1, x.id, x.version, x.collection_id, h.id, h.type, h.actor_id, h.actor_kind, h.at, h.diff, h.stage, h.outcome
       from written x cross join lateral jsonb_populate_record(null::record_changes, x.change) h
       returning 1
     )`;
}
