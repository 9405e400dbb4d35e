import { type Job, type JobKind, jobOf, type JobPayload } from "../../core/jobs/kind.ts";
import type { ConsumableJobQueue, JobLog, RunJob } from "../../core/jobs/ports.ts";

/**
 * The job queue of a single process (the embedded default, and today every configuration): jobs
 * run in the background, one at a time, in the order queued; a job equal to one still waiting
 * (same key) is not queued twice, while one equal to the running job is (it may have read stale
 * state). A failing job is logged and dropped: handlers are idempotent and the next trigger runs
 * them again. Nothing survives a restart and no other process sees the jobs (`shared: false`):
 * several instances, or `npm run worker`, want a shared queue (BullMQ) behind the same port.
 */
export function createMemoryJobQueue(log: JobLog): ConsumableJobQueue {
  const waiting = new Map<string, Job>();
  /** Jobs queued with a delay, until it passes (then they wait like the others). */
  const delayed = new Map<string, ReturnType<typeof setTimeout>>();
  let run: RunJob | null = null;
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
    if (running || !run) return;
    running = true;
    try {
      for (let next = waiting.values().next(); !next.done && !closed; next = waiting.values().next()) {
        const job = next.value;
        waiting.delete(job.key);
        const started = performance.now();
        try {
          await run(job);
          log("info", "job done", { job: job.kind, key: job.key, duration_ms: Math.round(performance.now() - started) });
        } catch (e) {
          log("warn", "job failed", { job: job.kind, key: job.key, error: e instanceof Error ? e.message : String(e) });
        }
      }
    } finally {
      running = false;
      settle();
    }
  }
  // In the background: whoever queued (a request) does not wait for the job.
  const schedule = () => void setTimeout(() => void pump(), 0);

  return {
    shared: false,
    async enqueue<K extends JobKind>(kind: K, workspaceId: string, payload: JobPayload<K>, opts: { delayMs?: number } = {}) {
      const job = jobOf(kind, workspaceId, payload);
      if (closed) {
        log("warn", "job dropped: the queue is closed", { job: job.kind, key: job.key });
        return;
      }
      const delayMs = Math.max(0, opts.delayMs ?? 0);
      if (delayMs > 0) {
        if (waiting.has(job.key) || delayed.has(job.key)) return;
        const timer = setTimeout(() => {
          delayed.delete(job.key);
          if (closed) return;
          if (!waiting.has(job.key)) waiting.set(job.key, job);
          schedule();
        }, delayMs);
        // A delayed job does not keep the process alive (a monitor's next run, hours away).
        (timer as { unref?: () => void }).unref?.();
        delayed.set(job.key, timer);
        return;
      }
      if (!waiting.has(job.key)) waiting.set(job.key, job);
      schedule();
    },
    consume(handler: RunJob) {
      if (run) throw new Error("Cannot consume: this queue already has a consumer");
      run = handler;
      schedule();
    },
    drain() {
      if (!running && waiting.size === 0) return Promise.resolve();
      return new Promise<void>((resolve) => idle.push(resolve));
    },
    async close(graceMs = 5_000) {
      closed = true;
      if (waiting.size > 0) log("warn", "jobs dropped at shutdown", { count: waiting.size });
      waiting.clear();
      for (const timer of delayed.values()) clearTimeout(timer);
      delayed.clear();
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([this.drain(), new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)))]);
      clearTimeout(timer);
    },
  };
}
