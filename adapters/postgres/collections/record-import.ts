/**
 * A records import in one transaction (docs/decisions/063-records-csv-and-ndjson.md): nothing of
 * it is visible before it commits, and any refusal, or a `batches` that throws, rolls all of it
 * back. The collection's row is share-locked first (its schema and status cannot change under the
 * import, and a purge waits for it, as it waits for a record update: collection, then records);
 * each batch's creates go out as one statement (its records and their history entries, as the
 * batch record create of ADR 058 inserts them, without what a lone create needs there: the
 * per-record version check, which the lock makes moot, and the claim) and its updates lock their
 * records first. The plan's units of the creates are claimed last, all at once, on the
 * workspace's counter: the counter row is locked only from there to the commit, as for a create
 * without a limit. While the database writes a batch, the next one is read and built.
 */
import type { CollectionRecord } from "../../../core/collections/model.ts";
import type { RecordImportBatch, RecordImportJob, RecordImportOutcome, RecordWrite } from "../../../core/collections/ports.ts";
import { inTransaction, PLAN_ONCE, type SqlDriver } from "../driver.ts";
import type { Row } from "../row-values.ts";
import { PostgresRecordStore } from "./record-store.ts";
import { CHANGE_COLUMNS, RECORD_COLUMNS, toRecord } from "./rows.ts";

/**
 * Records and their history entries from one JSON array of rows (`jsonb_to_recordset`): one
 * `JSON.stringify` of the batch, where an array per column cost postgres.js an escaped literal per
 * value (measured: most of the client's time). No join, no sort: every row is inserted.
 */
const INSERT = `with v as (select * from jsonb_to_recordset($3::text::jsonb) as v (id uuid, fields jsonb, status text, field_meta jsonb,
      entity_id text, drifted boolean, search_text text, created_by text, updated_by text, version int, created_at text,
      updated_at text, change_id uuid, change_version int, type text, actor_id text, actor_kind text, at text, diff jsonb,
      stage jsonb, outcome jsonb)),
    r as (insert into collection_records (${RECORD_COLUMNS})
      select $1, $2, id, fields, status, field_meta, entity_id, drifted, search_text, created_by, updated_by, version, created_at,
        updated_at
      from v
      returning 1),
    c as (insert into record_changes (${CHANGE_COLUMNS})
      select $1, id, change_version, $2, change_id, type, actor_id, actor_kind, at, diff, stage, outcome
      from v
      returning 1)
  select (select count(*) from r)::int as records, (select count(*) from c)::int as changes`;

async function insertCreates(db: SqlDriver, workspaceId: string, collectionId: string, writes: readonly RecordWrite[]): Promise<number> {
  const rows = writes.map(({ record: r, change: c }) => ({
    id: r.id,
    fields: r.fields,
    status: r.status,
    field_meta: r.field_meta,
    entity_id: r.entity_id,
    drifted: r.drifted,
    search_text: r.search_text,
    created_by: r.created_by,
    updated_by: r.updated_by,
    version: r.version,
    created_at: r.created_at,
    updated_at: r.updated_at,
    change_id: c.id,
    change_version: c.version,
    type: c.type,
    actor_id: c.actor_id,
    actor_kind: c.actor_kind,
    at: c.at,
    diff: c.diff,
    stage: c.stage,
    outcome: c.outcome,
  }));
  const [row] = await db.query<{ records: number; changes: number }>(INSERT, [workspaceId, collectionId, JSON.stringify(rows)], PLAN_ONCE);
  return Number(row?.records ?? 0);
}

/** Creates per insert statement (each a row of every `unnest` array). */
const INSERT_ROWS = 250;

/**
 * Adds `$2` units under the limit `$3` (null: none) to the workspace's counter, or seeds it from
 * an exact count, which (inside the import's transaction) already holds the import's records.
 */
const CLAIM = `with u as (update plan_usage set used = used + $2::bigint
      where workspace_id = $1 and kind = 'records' and ($3::bigint is null or used + $2::bigint <= $3::bigint)
      returning 1),
    s as (insert into plan_usage as t (workspace_id, kind, used)
      select $1, 'records', k.n from (select count(*) as n from collection_records where workspace_id = $1) k
      where ($3::bigint is null or k.n <= $3::bigint) and not exists (select 1 from u)
        and not exists (select 1 from plan_usage where workspace_id = $1 and kind = 'records')
      on conflict (workspace_id, kind) do update set used = t.used + $2::bigint
        where $3::bigint is null or t.used + $2::bigint <= $3::bigint
      returning 1)
  select exists (select 1 from u) or exists (select 1 from s) as took`;

export async function importInTransaction(
  db: SqlDriver,
  workspaceId: string,
  collectionId: string,
  job: RecordImportJob,
): Promise<RecordImportOutcome> {
  return await inTransaction<RecordImportOutcome>(db, async (tx, abort) => {
    const [c] = await tx.query<{ version: number }>(
      "select version from collections where workspace_id = $1 and id = $2 for share",
      [workspaceId, collectionId],
    );
    if (!c) return abort("collection_not_found");
    if (Number(c.version) !== job.collectionVersion) return abort("collection_changed");
    const records = new PostgresRecordStore(tx);
    let created = 0;
    let updated = 0;
    let unchanged = 0;
    const it = job.batches[Symbol.asyncIterator]();
    let next = it.next();
    try {
      for (;;) {
        const step = await next;
        if (step.done) break;
        const batch: RecordImportBatch = step.value;
        // The next batch is read and built while this one is written (its rows are pure values).
        next = it.next();
        next.catch(() => {}); // awaited on the next turn; a rejection must not go unhandled meanwhile
        for (let i = 0; i < batch.creates.length; i += INSERT_ROWS) {
          const writes = batch.creates.slice(i, i + INSERT_ROWS);
          const inserted = await insertCreates(tx, workspaceId, collectionId, writes);
          if (inserted !== writes.length) throw new Error(`An import batch inserted ${inserted} of ${writes.length} records`);
          created += inserted;
        }
        if (!batch.updates.length) continue;
        const current = new Map<string, CollectionRecord>();
        const rows = await tx.query<Row>(
          `select ${RECORD_COLUMNS} from collection_records where workspace_id = $1 and collection_id = $2 and id = any($3::uuid[])
           order by id for update`,
          [workspaceId, collectionId, batch.updates.map((u) => u.id)],
          PLAN_ONCE,
        );
        for (const r of rows) current.set(String(r.id), toRecord(r));
        const writes: RecordWrite[] = [];
        for (const u of batch.updates) {
          const cur = current.get(u.id);
          if (!cur || cur.version !== u.version) return abort({ conflict: u.id, current_version: cur?.version ?? null });
          const w = u.next(cur);
          if (w) writes.push(w);
          else unchanged++;
        }
        for (const w of writes) {
          // Locked above, at the version read: the write cannot conflict.
          if ((await records.update(w)) !== "ok") return abort({ conflict: w.record.id, current_version: null });
          updated++;
        }
      }
    } finally {
      // Stopped early (a refusal, an error): the reader of the file is told to stop too.
      await next.then(() => it.return?.(undefined), () => {}).catch(() => {});
    }
    if (job.claim && created > 0) {
      const [claimed] = await tx.query<{ took: boolean }>(CLAIM, [workspaceId, created, job.claim.limit]);
      if (!claimed?.took) {
        const [held] = await tx.query<{ used: string | number }>(
          `select coalesce((select used from plan_usage where workspace_id = $1 and kind = 'records'),
                           (select count(*) - $2::bigint from collection_records where workspace_id = $1)) as used`,
          [workspaceId, created],
        );
        return abort({ refused: "capacity", used: Number(held?.used ?? 0) });
      }
    }
    return { written: { created, updated, unchanged } };
  });
}
