import type { Job } from "../../../core/jobs/kind.ts";
import type { JobStores, JournalEntry } from "../../../core/jobs/ports.ts";
import type { SqlBundle } from "../bundle.ts";
import { iso, type SqlDriver } from "../driver.ts";
import { json, type Row } from "../row-values.ts";
import { sqlJobTransfer } from "./transfer.ts";

/** The SQL journal of the in-process queue (migration 012). */
export function sqlJobBundle(db: SqlDriver): SqlBundle<JobStores> {
  return {
    transfer: sqlJobTransfer(db),
    stores: {
      jobJournal: {
        async keep(e: JournalEntry) {
          await db.query(`insert into job_journal (id, run_at, job) values ($1, $2, $3::text::jsonb) on conflict (id) do nothing`, [
            e.id,
            e.run_at,
            json(e.job),
          ]);
        },
        async forget(id: string) {
          await db.query(`delete from job_journal where id = $1`, [id]);
        },
        async pending(limit: number) {
          const rows = await db.query<Row>(`select id, run_at, job from job_journal order by run_at, id limit $1`, [limit]);
          return rows.map((r) => ({ id: r.id as string, run_at: iso(r.run_at), job: r.job as Job }));
        },
      },
    },
  };
}
