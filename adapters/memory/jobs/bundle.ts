import type { JobStores, JournalEntry } from "../../../core/jobs/ports.ts";
import type { MemoryBundle } from "../bundle.ts";
import { memoryJobTransfer } from "./transfer.ts";

/** The memory adapter's journal: kept as long as the process lives (no resumption across restarts). */
export class JobTables {
  jobJournal = new Map<string, JournalEntry>();
}

export function memoryJobBundle(t: JobTables): MemoryBundle<JobStores> {
  return {
    transfer: memoryJobTransfer(t),
    stores: {
      jobJournal: {
        keep: async (e) => void t.jobJournal.set(e.id, structuredClone(e)),
        forget: async (id) => void t.jobJournal.delete(id),
        pending: async (limit) =>
          [...t.jobJournal.values()].sort((a, b) => (a.run_at < b.run_at ? -1 : a.run_at > b.run_at ? 1 : 0)).slice(0, limit).map((e) =>
            structuredClone(e)
          ),
      },
    },
    // Jobs are not tenant rows a workspace owns: a purged workspace's jobs find nothing and end.
    purgeWorkspace: () => {},
  };
}
