import type { TransferKindSpec } from "../kernel/transfer-kind-spec.ts";

/**
 * Jobs' kinds as they move between stores (ADR 067): the in-process queue's journal
 * (`JournalEntry`: the jobs queued and not yet run), so a server started on the copy runs them.
 * Global, as the journal is (each job names its workspace inside `job`).
 */
export const JOB_KINDS = {
  journal: { name: "jobs.journal", tenant: false, key: ["id"] },
} as const satisfies Record<string, TransferKindSpec>;
