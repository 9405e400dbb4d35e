import { type Job, type JobKind, jobOf, type JobPayload } from "../../core/jobs/kind.ts";
import type { ConsumableJobQueue, JobJournal, JobLog, JournalEntry, RunJob } from "../../core/jobs/ports.ts";

/** The longest delay a timer holds (2^31 − 1 ms, about 24.8 days). */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * The job queue of a single process (the embedded default; MongoDB without Redis): jobs run in
 * the background, one at a time, in the order queued; a job equal to one still waiting (same key)
 * is not queued twice, while one equal to the running job is (it may have read stale state). A
 * delayed job waits its delay first. A failing job is logged and dropped: handlers are idempotent
 * and the next trigger runs them again. No other process sees the jobs (`shared: false`).
 *
 * With a `journal` (the primary store's, docs/decisions/024-job-queues.md) every queued job is
 * kept until it has run, and `consume()` first resumes what a previous process left: queued,
 * delayed or running when it stopped. Without one, nothing survives a restart.
 */
export function createMemoryJobQueue(log: JobLog, journal: JobJournal | null = null): ConsumableJobQueue {
  const waiting = new Map<string, JournalEntry>();
  /** Jobs queued with a delay, until it passes (then they wait like the others). */
  const delayed = new Map<string, { entry: JournalEntry; timer: ReturnType<typeof setTimeout> }>();
  let run: RunJob | null = null;
  let running = false;
  let closed = false;
  let idle: Array<() => void> = [];
  let resumed: Promise<void> = Promise.resolve();

  const settle = () => {
    if (running || waiting.size > 0) return;
    const waiters = idle;
    idle = [];
    for (const w of waiters) w();
  };
  const forget = (entry: JournalEntry) =>
    journal?.forget(entry.id).catch((e) => log("warn", "job journal: forget failed", { error: String(e) }));

  async function pump(): Promise<void> {
    if (running || !run) return;
    running = true;
    try {
      for (let next = waiting.values().next(); !next.done && !closed; next = waiting.values().next()) {
        const entry = next.value;
        const job = entry.job;
        waiting.delete(job.key);
        const started = performance.now();
        try {
          await run(job);
          log("info", "job done", { job: job.kind, key: job.key, duration_ms: Math.round(performance.now() - started) });
        } catch (e) {
          log("warn", "job failed", { job: job.kind, key: job.key, error: e instanceof Error ? e.message : String(e) });
        }
        await forget(entry);
      }
    } finally {
      running = false;
      settle();
    }
  }
  // In the background: whoever queued (a request) does not wait for the job.
  const schedule = () => void setTimeout(() => void pump(), 0);

  /** Places an entry: waiting now, or after its delay. False when an equal job is already there. */
  function place(entry: JournalEntry): boolean {
    const key = entry.job.key;
    if (waiting.has(key) || delayed.has(key)) return false;
    const delayMs = Date.parse(entry.run_at) - Date.now();
    if (delayMs <= 0) {
      waiting.set(key, entry);
      schedule();
      return true;
    }
    arm(entry, delayMs);
    return true;
  }

  /**
   * Waits out an entry's delay, in steps of at most MAX_TIMER_MS: a longer timeout fires at once
   * (timers hold a signed 32-bit delay), which would run a job due in a month now.
   */
  function arm(entry: JournalEntry, delayMs: number): void {
    const key = entry.job.key;
    const timer = setTimeout(() => {
      const left = Date.parse(entry.run_at) - Date.now();
      if (left > 0 && !closed) return arm(entry, left);
      delayed.delete(key);
      if (closed) return;
      if (waiting.has(key)) void forget(entry);
      else waiting.set(key, entry);
      schedule();
    }, Math.min(delayMs, MAX_TIMER_MS));
    // A delayed job does not keep the process alive (a monitor's next run, hours away).
    (timer as { unref?: () => void }).unref?.();
    delayed.set(key, { entry, timer });
  }

  /** What a previous process left in the journal, placed again (equal jobs once). */
  async function resume(): Promise<void> {
    if (!journal) return;
    const entries = await journal.pending(10_000);
    let count = 0;
    for (const entry of entries) {
      if (place(entry)) count++;
      else await forget(entry);
    }
    if (count > 0) log("info", "jobs resumed from the journal", { count });
  }

  return {
    shared: false,
    async enqueue<K extends JobKind>(kind: K, workspaceId: string, payload: JobPayload<K>, opts: { delayMs?: number } = {}) {
      const job: Job = jobOf(kind, workspaceId, payload);
      if (closed) {
        log("warn", "job dropped: the queue is closed", { job: job.kind, key: job.key });
        return;
      }
      if (waiting.has(job.key) || delayed.has(job.key)) return;
      const now = Date.now();
      const entry: JournalEntry = { id: crypto.randomUUID(), job, run_at: new Date(now + Math.max(0, opts.delayMs ?? 0)).toISOString() };
      // Kept before it is placed: a job the caller was told is queued survives a crash.
      await journal?.keep(entry);
      if (!place(entry)) await forget(entry);
    },
    consume(handler: RunJob) {
      if (run) throw new Error("Cannot consume: this queue already has a consumer");
      run = handler;
      resumed = resume().catch((e) => log("error", "job journal: resume failed", { error: String(e) }));
      schedule();
    },
    async drain() {
      await resumed;
      if (!running && waiting.size === 0) return;
      return new Promise<void>((resolve) => idle.push(resolve));
    },
    async check() {
      // In this process: there whenever the process is.
    },
    async close(graceMs = 5_000) {
      closed = true;
      if (waiting.size > 0 || delayed.size > 0) {
        const count = waiting.size + delayed.size;
        if (journal) log("info", "jobs kept in the journal for the next start", { count });
        else log("warn", "jobs dropped at shutdown", { count });
      }
      waiting.clear();
      for (const d of delayed.values()) clearTimeout(d.timer);
      delayed.clear();
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([this.drain(), new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)))]);
      clearTimeout(timer);
    },
  };
}
