import { type Job, type JobQueue, jobKey } from "../core/jobs/ports.ts";

/** Where the queue reports: the server passes its structured logger. */
export type JobLog = (level: "info" | "warn" | "error", msg: string, fields?: Record<string, unknown>) => void;

export interface InProcessQueue extends JobQueue {
  /** Jobs waiting, not counting the one running. */
  readonly waiting: number;
  /** Resolves once nothing is waiting or running (tests; shutdown). */
  drain(): Promise<void>;
  /**
   * Stops taking jobs and drops the waiting ones (an in-process queue keeps nothing across a
   * restart anyway); waits for the running one up to `graceMs` (default 5 s).
   */
  close(graceMs?: number): Promise<void>;
}

/**
 * The job queue of a single server process (the embedded default): jobs run in the background,
 * one at a time, in the order queued; a job equal to one still waiting (same type and repo) is not
 * queued twice. A failing job is logged and dropped: handlers are idempotent and the next trigger
 * (a push, a refresh) runs them again. Nothing survives a restart and other instances do not share
 * it: several instances want a Redis-backed queue (e.g. BullMQ) behind the same `JobQueue` port.
 */
export function createInProcessQueue(handle: (job: Job) => Promise<void>, log: JobLog): InProcessQueue {
  const waiting = new Map<string, Job>();
  let running = false;
  let closed = false;
  let idle: Array<() => void> = [];

  const settle = () => {
    if (running || waiting.size > 0) return;
    const waiters = idle;
    idle = [];
    for (const w of waiters) w();
  };

  async function pump(): Promise<void> {
    if (running) return;
    running = true;
    try {
      for (let next = waiting.entries().next(); !next.done; next = waiting.entries().next()) {
        const [key, job] = next.value;
        waiting.delete(key);
        const started = performance.now();
        try {
          await handle(job);
          log("info", "job done", { job: job.type, key, duration_ms: Math.round(performance.now() - started) });
        } catch (e) {
          log("warn", "job failed", { job: job.type, key, error: e instanceof Error ? e.message : String(e) });
        }
      }
    } finally {
      running = false;
      settle();
    }
  }

  return {
    get waiting() {
      return waiting.size;
    },
    async enqueue(job: Job) {
      if (closed) {
        log("warn", "job dropped: the queue is closed", { job: job.type, key: jobKey(job) });
        return;
      }
      const key = jobKey(job);
      if (!waiting.has(key)) waiting.set(key, job);
      // In the background: the caller's request does not wait for the job.
      setTimeout(() => void pump(), 0);
    },
    drain() {
      if (!running && waiting.size === 0) return Promise.resolve();
      return new Promise<void>((resolve) => idle.push(resolve));
    },
    async close(graceMs = 5_000) {
      closed = true;
      if (waiting.size > 0) log("warn", "jobs dropped at shutdown", { count: waiting.size });
      waiting.clear();
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([this.drain(), new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)))]);
      clearTimeout(timer);
    },
  };
}
