import type { TransferKind } from "../../../core/kernel/store-transfer.ts";
import type { JournalEntry } from "../../../core/jobs/ports.ts";
import { JOB_KINDS } from "../../../core/jobs/transfer.ts";
import { memoryKind } from "../transfer-kind.ts";

/** Jobs' kinds on the memory adapter: the journal's entries are the documents. */
export function memoryJobTransfer(t: { jobJournal: Map<string, JournalEntry> }): TransferKind[] {
  return [
    memoryKind<JournalEntry>({
      spec: JOB_KINDS.journal,
      docs: () => [...t.jobJournal.values()],
      has: (d) => t.jobJournal.has(d.id),
      put: (d) => void t.jobJournal.set(d.id, d),
    }),
  ];
}
