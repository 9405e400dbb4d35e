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

/** After a queue or worker failed to connect, how long before a fresh one tries. */
const RETRY_MS = 1_000;
/** Errors a second past which a worker is spinning (BullMQ retries some failures without a pause) and is replaced. */
const ERROR_STORM = 50;

/**
 * BullMQ errors as log lines, at most one a second per message (with how many were left out): an
 * outage makes the same error over and over.
 */
function errorLog(log: JobLog, level: "warn" | "error", msg: string) {
  let last = -Infinity;
  let left = 0;
  return (error: Error) => {
    const now = performance.now();
    if (now - last < 1_000) {
      left++;
      return;
    }
    last = now;
    log(level, msg, { error: error.message, ...(left > 0 ? { repeated: left } : {}) });
    left = 0;
  };
}

export function createBullJobQueue(log: JobLog, o: BullJobQueueOptions): ConsumableJobQueue {
  const leaseMs = o.leaseMs ?? 30_000;
  const attempts = o.attempts ?? 3;
  let closed = false;
  // Without a listener BullMQ prints the error, with its client object, over several lines of
  // stderr; with one, it is one line of the structured log.
  const queueError = errorLog(log, "warn", "job queue error");
  const workerError = errorLog(log, "error", "job worker error");
  // BullMQ memoizes an object's first connection (its schema check): when that fails (the
  // database slow or away as the process starts), every later call of the object fails at once,
  // for good. Such a queue or worker is replaced by a fresh one; a worker spinning on a failure
  // (it retries some errors without a pause) too, once it raises ERROR_STORM errors a second.
  const openQueue = (): Queue<Data> => {
    const q = new Queue<Data>(o.name, { connection: o.connection } as never, o.backend as never);
    q.on("error", queueError);
    q.waitUntilReady().catch((e: Error) => {
      if (closed || queue !== q) return;
      log("warn", "job queue cannot connect; a fresh one retries", { error: e.message, retry_ms: RETRY_MS });
      setTimeout(() => {
        if (closed || queue !== q) return;
        queue = openQueue();
        void q.close().catch(() => {});
      }, RETRY_MS);
    });
    return q;
  };
  let queue = openQueue();
  let worker: Worker<Data> | null = null;
  let restart: ReturnType<typeof setTimeout> | undefined;
  let running = 0;
  /** The jobs this process runs now, with the lock token that lets it hand them back. */
  const held = new Map<string, { bull: BullJob<Data>; token: string | undefined }>();

  let consumer: RunJob | null = null;
  function startWorker(): void {
    const run = consumer;
    if (closed || !run) return;
    const w = new Worker<Data>(
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
    worker = w;
    w.on("failed", (bull, error) => {
      if (!bull) return;
      const final = bull.attemptsMade >= (bull.opts.attempts ?? 1);
      log(final ? "warn" : "info", final ? "job failed" : "job failed, will retry", {
        job: bull.data.kind,
        key: bull.data.key,
        attempt: bull.attemptsMade,
        error: error.message,
      });
    });
    let second = 0;
    let errors = 0;
    w.on("error", (error) => {
      workerError(error);
      const now = performance.now();
      if (now - second > 1_000) [second, errors] = [now, 0];
      if (++errors === ERROR_STORM) replaceWorker(w, `${ERROR_STORM} errors within a second: ${error.message}`);
    });
    // Its first connection failed, or a later one before it was ever ready: during an outage a
    // worker may be replaced every second until the database is back; it held no job that could
    // have finished meanwhile.
    w.waitUntilReady().catch((e: Error) => replaceWorker(w, `cannot connect: ${e.message}`));
  }
  /** Closes a worker that cannot work and starts a fresh one a moment later. */
  function replaceWorker(w: Worker<Data>, reason: string): void {
    if (closed || worker !== w) return;
    log("warn", "job worker replaced", { reason, retry_ms: RETRY_MS });
    worker = null;
    void w.close(true).catch(() => {});
    restart = setTimeout(startWorker, RETRY_MS);
  }

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
      if (consumer) throw new Error("Cannot consume: this queue already has a consumer");
      consumer = run;
      startWorker();
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
      clearTimeout(restart);
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
