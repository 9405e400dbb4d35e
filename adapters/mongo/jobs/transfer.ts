import type { JournalEntry } from "../../../core/jobs/ports.ts";
import { JOB_KINDS } from "../../../core/jobs/transfer.ts";
import type { TransferKind } from "../../../core/kernel/store-transfer.ts";
import { insertMissing, mongoKind } from "../transfer-kind.ts";
import type { JobCollections } from "./bundle.ts";

/** Jobs' kinds over `job_journal`. */
export function mongoJobTransfer(c: JobCollections): TransferKind[] {
  return [
    mongoKind({
      spec: JOB_KINDS.journal,
      collection: c.jobJournal,
      keyFields: ["_id"],
      toDocs: async (page) => page.map((d): JournalEntry => ({ id: d._id, run_at: d.run_at, job: d.job })),
      write: async (docs: JournalEntry[]) =>
        (await insertMissing(c.jobJournal, docs.map((e) => ({ _id: e.id, run_at: e.run_at, job: e.job })))).length,
    }),
  ];
}
