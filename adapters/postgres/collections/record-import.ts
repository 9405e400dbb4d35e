/**
 * A records import in one transaction (docs/decisions/063-records-csv-and-ndjson.md): nothing of
 * it is visible before it commits, and any refusal, or a `batches` that throws, rolls all of it
 * back. The collection's row is share-locked first (its schema and status cannot change under the
 * import, and a purge waits for it, as it waits for a record update: collection, then records);
 * each batch's creates go out as the batch record create's one statement (record-creates.ts,
 * ADR 058) and its updates lock their records first. The plan's units of the creates are claimed
 * last, all at once, on the workspace's counter: the counter row is locked only from there to the
 * commit, as for a create without a limit.
 */
import type { CollectionRecord } from "../../../core/collections/model.ts";
import type { RecordImportJob, RecordImportOutcome, RecordWrite } from "../../../core/collections/ports.ts";
import { inTransaction, PLAN_ONCE, type SqlDriver } from "../driver.ts";
import type { Row } from "../row-values.ts";
import { INSERT_UNCLAIMED, insertAll } from "./record-creates.ts";
import { PostgresRecordStore, RECORD_COLUMNS, toRecord } from "./record-store.ts";

/** Creates per insert statement (each a row of every `unnest` array). */
const INSERT_ROWS = 1_000;

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
    for await (const batch of job.batches) {
      for (let i = 0; i < batch.creates.length; i += INSERT_ROWS) {
        const items = batch.creates.slice(i, i + INSERT_ROWS).map((w) => ({
          w,
          claim: { kind: "records" as const, limit: null },
          collectionVersion: job.collectionVersion,
        }));
        const { inserted } = await insertAll(tx, items, INSERT_UNCLAIMED);
        if (inserted !== items.length) return abort("collection_changed");
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
