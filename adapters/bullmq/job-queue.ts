import { type Job as BullJob, Queue, Worker } from "bullmq";
import { type Job, type JobKind, jobOf, type JobPayload } from "../../core/jobs/kind.ts";
import type { ConsumableJobQueue, JobLog, RunJob } from "../../core/jobs/ports.ts";
import { AppError } from "../../core/kernel/errors.ts";

/**
 * The shared job queue (docs/decisions/024-job-queues.md): BullMQ 6, on Redis or on its PostgreSQL
 * backend, reached by every server and `npm run worker` process of a deployment. A job's id is its
 * key, so an equal job still waiting (or delayed) collapses into it; one equal to a running job is
 * queued once more under `<key>~again`, as the in-process queue does (the running one may have read
 * stale state). A consumer holds a job under a lock of `leaseMs`, renewed while it runs: a consumer
 * that dies (SIGKILL) loses the lock and another takes the job over. A failing job is retried
 * `attempts` times with exponential backoff, then logged and kept among the failed.
 */

export interface BullJobQueueOptions {
  /** The BullMQ queue's name (one per deployment; tests use one each). */
  name: string;
  /** `connection` and backend factory for the Queue and Worker (redis.ts, postgres.ts). */
  connection: unknown;
  backend?: unknown;
  /** How long a consumer owns a job without renewing its lock (default 30 s). */
  leaseMs?: number;
  /** Runs of a failing job before it is given up (default 3). */
  attempts?: number;
  /** First retry delay, doubled each time (default 1 s). */
  backoffMs?: number;
  /** Jobs run at once by this process's consumer (default 4). */
  concurrency?: number;
  /** Closes the connections the adapter opened (not BullMQ's own). */
  onClose?: () => Promise<void>;
}

interface Data {
  kind: string;
  workspace_id: string;
  payload: unknown;
  key: string;
}

// BullMQ reserves `:` in ids (its key separator).
const idOf = (key: string) => key.replaceAll(":", "|");

export function createBullJobQueue(log: JobLog, o: BullJobQueueOptions): ConsumableJobQueue {
  const leaseMs = o.leaseMs ?? 30_000;
  const attempts = o.attempts ?? 3;
  const queue = new Queue<Data>(o.name, { connection: o.connection } as never, o.backend as never);
  // Without a listener BullMQ prints the error, with its client object, over several lines of
  // stderr; with one, it is one line of the structured log.
  queue.on("error", (error: Error) => log("warn", "job queue error", { error: error.message }));
  let worker: Worker<Data> | null = null;
  let closed = false;
  let running = 0;
  /** The jobs this process runs now, with the lock token that lets it hand them back. */
  const held = new Map<string, { bull: BullJob<Data>; token: string | undefined }>();

  async function add(job: Job, delayMs: number): Promise<void> {
    const id = idOf(job.key);
    const existing = await queue.getJob(id);
    const state = existing ? await existing.getState() : null;
    // Equal to a job still to run: it collapses. Equal to a running or finished one: queued again.
    if (state === "waiting" || state === "delayed" || state === "prioritized" || state === "waiting-children") return;
    const jobId = state === "active" ? `${id}~again` : id;
    if (state && state !== "active") await existing!.remove().catch(() => {});
    await queue.add(job.kind, { kind: job.kind, workspace_id: job.workspace_id, payload: job.payload, key: job.key }, {
      jobId,
      delay: Math.max(0, Math.trunc(delayMs)),
      attempts,
      backoff: { type: "exponential", delay: o.backoffMs ?? 1_000 },
      removeOnComplete: true,
      removeOnFail: { count: 1_000 },
    });
  }

  return {
    shared: true,
    async enqueue<K extends JobKind>(kind: K, workspaceId: string, payload: JobPayload<K>, opts: { delayMs?: number } = {}) {
      const job = jobOf(kind, workspaceId, payload);
      if (closed) {
        log("warn", "job not queued: the queue is closed", { job: job.kind, key: job.key });
        return;
      }
      try {
        await add(job, opts.delayMs ?? 0);
      } catch (e) {
        // The queue's store (Redis, or PostgreSQL) is not answering: the request that queued is
        // refused with 503 rather than a 500, and may be retried.
        const error = new AppError("STORE_UNAVAILABLE", "Service unavailable: the job queue cannot be reached; retry shortly");
        Object.defineProperty(error, "cause", { value: e, enumerable: false });
        throw error;
      }
    },
    async check() {
      // A read of one flag: answers only if the queue's store does.
      await queue.isPaused();
    },
    consume(run: RunJob) {
      if (worker) throw new Error("Cannot consume: this queue already has a consumer");
      worker = new Worker<Data>(
        o.name,
        async (bull, token) => {
          running++;
          const started = performance.now();
          const id = bull.id ?? bull.data.key;
          held.set(id, { bull, token });
          try {
            const d = bull.data;
            await run({ kind: d.kind, workspace_id: d.workspace_id, payload: d.payload as never, key: d.key });
            log("info", "job done", { job: d.kind, key: d.key, duration_ms: Math.round(performance.now() - started) });
          } finally {
            held.delete(id);
            running--;
          }
        },
        {
          connection: o.connection,
          concurrency: o.concurrency ?? 4,
          lockDuration: leaseMs,
          stalledInterval: Math.max(500, Math.floor(leaseMs / 2)),
          maxStalledCount: 5,
          // After a failure to reach the queue's store, try again within a second (BullMQ waits
          // 15 s by default: jobs stood still that long after the database was back).
          runRetryDelay: 1_000,
        } as never,
        o.backend as never,
      );
      worker.on("failed", (bull, error) => {
        if (!bull) return;
        const final = bull.attemptsMade >= (bull.opts.attempts ?? 1);
        log(final ? "warn" : "info", final ? "job failed" : "job failed, will retry", {
          job: bull.data.kind,
          key: bull.data.key,
          attempt: bull.attemptsMade,
          error: error.message,
        });
      });
      worker.on("error", (error) => log("error", "job worker error", { error: error.message }));
    },
    async drain() {
      // Nothing waiting or running: delayed jobs (a monitor's next run) do not count.
      for (;;) {
        if (closed && running === 0) return;
        const counts = await queue.getJobCounts("waiting", "active", "prioritized", "waiting-children");
        if (Object.values(counts).every((n) => n === 0) && running === 0) return;
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async close(graceMs = 5_000) {
      if (closed) return;
      closed = true;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const grace = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), graceMs)));
      // No new job is taken from here on; the running ones get the grace to finish.
      const stopped = await Promise.race([worker ? worker.close().then(() => "ok" as const) : Promise.resolve("ok" as const), grace]);
      clearTimeout(timer);
      if (stopped === "timeout" && held.size > 0) {
        // Handed back to the queue at once, for another consumer to run (handlers are
        // idempotent), rather than after their lock lapses (JOB_LEASE_MS).
        const jobs = [...held.values()];
        const back = await Promise.all(jobs.map(({ bull, token }) => bull.moveToWait(token).then(() => 1, () => 0)));
        log("warn", "jobs still running at shutdown handed back to the queue", {
          jobs: jobs.map(({ bull }) => bull.data.key),
          handed_back: back.reduce((a: number, b: number) => a + b, 0),
        });
      }
      await queue.close().catch(() => {});
      await o.onClose?.().catch(() => {});
    },
  };
}
