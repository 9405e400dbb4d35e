import type { Job, JobKind, JobPayload } from "./kind.ts";

/**
 * Background work, as use cases see it: they queue jobs of declared kinds (kind.ts) and return;
 * a worker runs them later (workers/). Delivery is at least once: handlers are idempotent.
 */
export interface JobQueue {
  /**
   * Queues a job of `kind` for the workspace. A job equal to one still waiting (same key) is not
   * queued twice. A payload that does not fit the kind's schema is refused (VALIDATION_FAILED).
   */
  enqueue<K extends JobKind>(kind: K, workspaceId: string, payload: JobPayload<K>, opts?: { delayMs?: number }): Promise<void>;
}

/** A job kept by a journal: `id` is the entry's own (an equal job queued again gets another). */
export interface JournalEntry {
  id: string;
  job: Job;
  /** When it may run (later than its queuing for a delayed job). */
  run_at: string;
}

/**
 * Where an in-process queue keeps its jobs until they have run, so a restarted process resumes
 * them (the embedded default, and MongoDB without Redis): the primary store, one bundle per adapter.
 */
export interface JobJournal {
  keep(entry: JournalEntry): Promise<void>;
  /** Forgets an entry once its job has run or been given up. */
  forget(id: string): Promise<void>;
  /** Kept entries, soonest first, at most `limit`. */
  pending(limit: number): Promise<JournalEntry[]>;
}

/** Jobs' stores, one bundle per adapter (adapters/<adapter>/jobs/). */
export interface JobStores {
  jobJournal: JobJournal;
}

/** Runs one job; throwing marks it failed (the queue logs it and goes on). */
export type RunJob = (job: Job) => Promise<void>;

/** Where a queue reports what became of jobs: the host passes its structured logger. */
export type JobLog = (level: "info" | "warn" | "error", msg: string, fields?: Record<string, unknown>) => void;

/**
 * A queue as the process that hosts it sees it: use cases enqueue, a worker consumes. The
 * in-process queue (adapters/memory/job-queue.ts) and a shared one (BullMQ, later) implement it
 * and pass the same contract suite (tests/contract/job-queue.contract.ts).
 */
export interface ConsumableJobQueue extends JobQueue {
  /**
   * Whether other processes reach the jobs queued here. Only then can a worker process
   * (`npm run worker`) consume them, and a server leave them to it (`WORKERS=off`).
   */
  readonly shared: boolean;
  /** Starts running jobs in this process with `run` (how many at once is the queue's). Until then they wait. */
  consume(run: RunJob): void;
  /** Resolves once this process has nothing waiting or running (tests; shutdown). */
  drain(): Promise<void>;
  /**
   * Resolves when the queue's store answers, throws when it does not (readiness). An in-process
   * queue is always there (its journal is the primary store, checked on its own).
   */
  check(): Promise<void>;
  /**
   * Stops taking and running jobs here; waits for the running one up to `graceMs` (default 5 s).
   * What happens to waiting jobs is the queue's nature: an in-process queue drops them, a shared
   * one keeps them for other workers.
   */
  close(graceMs?: number): Promise<void>;
}
