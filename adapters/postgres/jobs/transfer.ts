import type { Job } from "../../../core/jobs/kind.ts";
import type { JournalEntry } from "../../../core/jobs/ports.ts";
import { JOB_KINDS } from "../../../core/jobs/transfer.ts";
import type { TransferKind } from "../../../core/kernel/store-transfer.ts";
import { iso, type SqlDriver } from "../driver.ts";
import { json, str } from "../row-values.ts";
import { sqlKind } from "../transfer-kind.ts";

/** Jobs' kinds over `job_journal` (migration 012). */
export function sqlJobTransfer(db: SqlDriver): TransferKind[] {
  return [
    sqlKind<JournalEntry>(db, {
      spec: JOB_KINDS.journal,
      table: "job_journal",
      select: "t.id, t.run_at, t.job",
      toDoc: (r) => ({ id: str(r.id), run_at: iso(r.run_at), job: (typeof r.job === "string" ? JSON.parse(r.job) : r.job) as Job }),
      keyColumns: [{ name: "id", text: false }],
      columns: [
        { name: "id", value: (d) => d.id },
        { name: "run_at", value: (d) => d.run_at },
        { name: "job", cast: "text::jsonb", value: (d) => json(d.job) },
      ],
    }),
  ];
}
