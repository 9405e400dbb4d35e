import type { TestApi } from "./kit/test-api.ts";
import { Type } from "@sinclair/typebox";
import { isAppError } from "../../core/kernel/errors.ts";
import { type Job, jobKind } from "../../core/jobs/kind.ts";
import type { ConsumableJobQueue, JobLog } from "../../core/jobs/ports.ts";

/** A kind of the tests' own: the queue knows kinds only through their declaration. */
const noteJob = jobKind({
  name: "test.note",
  payload: Type.Object({ id: Type.String() }, { additionalProperties: false }),
  dedupKey: (p) => p.id,
});

interface Deferred {
  promise: Promise<void>;
  resolve(): void;
}
function deferred(): Deferred {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/**
 * A consumer that records what it ran: `bad` fails, `gate` signals `started` and holds until
 * `gate` is released (so tests know exactly which job is running and which are waiting).
 */
function recorder() {
  const ran: string[] = [];
  const jobs: Job[] = [];
  const started = deferred();
  const gate = deferred();
  let finished = false;
  const run = async (job: Job) => {
    const id = (job.payload as { id: string }).id;
    if (id === "gate") {
      started.resolve();
      await gate.promise;
      await new Promise((r) => setTimeout(r, 1));
      finished = true;
    }
    if (id === "bad") throw new Error("boom");
    jobs.push(job);
    ran.push(`${job.workspace_id}/${id}`);
  };
  return { ran, jobs, run, started: started.promise, release: gate.resolve, finished: () => finished };
}

type Logged = { level: string; msg: string; fields?: Record<string, unknown> };

/**
 * The contract of a `ConsumableJobQueue` (core/jobs/ports.ts): what the in-process queue does and
 * a shared one (BullMQ) must do too. `open` gives a fresh, empty queue reporting to `log`.
 */
export function runJobQueueContract(name: string, open: (log: JobLog) => Promise<ConsumableJobQueue>, api: TestApi) {
  const { afterEach, describe, expect, test } = api;
  describe(`${name}: JobQueue`, () => {
    let q: ConsumableJobQueue | undefined;
    let logs: Logged[];
    const fresh = async () => {
      logs = [];
      q = await open((level, msg, fields) => void logs.push({ level, msg, fields }));
      return q;
    };
    afterEach(async () => {
      await q?.close(1_000);
      q = undefined;
    });

    test("enqueue() returns without waiting for the job; the consumer gets its kind, workspace and payload", async () => {
      const q = await fresh();
      const r = recorder();
      q.consume(r.run);
      await q.enqueue(noteJob, "ws-1", { id: "gate" });
      await r.started;
      // The job is still running (held by the gate) and the caller already has its answer.
      expect(r.ran).toEqual([]);
      r.release();
      await q.drain();
      expect(r.ran).toEqual(["ws-1/gate"]);
      expect(r.jobs[0]).toMatchObject({ kind: "test.note", workspace_id: "ws-1", payload: { id: "gate" } });
    });

    test("jobs queued before consume() wait for it, then run", async () => {
      const q = await fresh();
      await q.enqueue(noteJob, "ws-1", { id: "early" });
      const r = recorder();
      q.consume(r.run);
      await q.drain();
      expect(r.ran).toEqual(["ws-1/early"]);
    });

    test("a job equal to one still waiting collapses into it; another id or another workspace does not", async () => {
      const q = await fresh();
      const r = recorder();
      q.consume(r.run);
      await q.enqueue(noteJob, "ws-1", { id: "gate" });
      await r.started;
      await q.enqueue(noteJob, "ws-1", { id: "x" });
      await q.enqueue(noteJob, "ws-1", { id: "x" });
      await q.enqueue(noteJob, "ws-2", { id: "x" });
      await q.enqueue(noteJob, "ws-1", { id: "y" });
      r.release();
      await q.drain();
      expect([...r.ran].sort()).toEqual(["ws-1/gate", "ws-1/x", "ws-1/y", "ws-2/x"]);
    });

    test("a job equal to the running one runs again after it (the running one may have read stale state)", async () => {
      const q = await fresh();
      const r = recorder();
      q.consume(r.run);
      await q.enqueue(noteJob, "ws-1", { id: "gate" });
      await r.started;
      await q.enqueue(noteJob, "ws-1", { id: "gate" });
      r.release();
      await q.drain();
      expect(r.ran).toEqual(["ws-1/gate", "ws-1/gate"]);
    });

    test("a delayed job runs once its delay has passed, not before; an equal one queued meanwhile collapses into it", async () => {
      const q = await fresh();
      const r = recorder();
      q.consume(r.run);
      const queued = Date.now();
      await q.enqueue(noteJob, "ws-1", { id: "later" }, { delayMs: 600 });
      await q.enqueue(noteJob, "ws-1", { id: "later" }, { delayMs: 600 });
      await q.enqueue(noteJob, "ws-1", { id: "now" });
      await q.drain();
      expect(r.ran).toEqual(["ws-1/now"]);
      const deadline = Date.now() + 10_000;
      while (r.ran.length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
      expect(r.ran).toEqual(["ws-1/now", "ws-1/later"]);
      expect(Date.now() - queued).toBeGreaterThanOrEqual(550);
    });

    test("a failing job is logged with its error and the queue goes on", async () => {
      const q = await fresh();
      const r = recorder();
      q.consume(r.run);
      await q.enqueue(noteJob, "ws-1", { id: "bad" });
      await q.enqueue(noteJob, "ws-1", { id: "after" });
      await q.drain();
      expect(r.ran).toEqual(["ws-1/after"]);
      const failed = logs.filter((l) => l.msg === "job failed");
      expect(failed).toHaveLength(1);
      expect(failed[0]).toMatchObject({ level: "warn", fields: { job: "test.note", error: "boom" } });
    });

    test("enqueue() refuses a payload that does not fit its kind, or no workspace, and queues nothing", async () => {
      const q = await fresh();
      const r = recorder();
      q.consume(r.run);
      for (const bad of [{ id: 5 }, { id: "a", extra: true }, {}]) {
        const refused = await q.enqueue(noteJob, "ws-1", bad as never).then(() => null, (e: unknown) => e);
        expect(isAppError(refused) && refused.code).toBe("VALIDATION_FAILED");
      }
      const noWorkspace = await q.enqueue(noteJob, "", { id: "a" }).then(() => null, (e: unknown) => e);
      expect(isAppError(noWorkspace) && noWorkspace.code).toBe("VALIDATION_FAILED");
      await q.enqueue(noteJob, "ws-1", { id: "fits" });
      await q.drain();
      expect(r.ran).toEqual(["ws-1/fits"]);
    });

    test("close() waits for the running job; afterwards nothing more runs in this process", async () => {
      const q = await fresh();
      const r = recorder();
      q.consume(r.run);
      await q.enqueue(noteJob, "ws-1", { id: "gate" });
      await r.started;
      await q.enqueue(noteJob, "ws-1", { id: "waiting" });
      const closing = q.close(10_000);
      r.release();
      await closing;
      expect(r.finished()).toBe(true);
      await q.enqueue(noteJob, "ws-1", { id: "late" }).catch(() => {});
      await q.drain();
      expect(r.ran).toEqual(["ws-1/gate"]);
    });

    test("check() resolves while the queue's store answers (readiness)", async () => {
      const q = await fresh();
      await q.check();
      q.consume(recorder().run);
      await q.check();
    });

    test("close() gives up waiting on a job that outlasts its grace period", async () => {
      const q = await fresh();
      const r = recorder();
      q.consume(r.run);
      await q.enqueue(noteJob, "ws-1", { id: "gate" });
      await r.started;
      await q.close(10);
      expect(r.finished()).toBe(false);
      r.release();
    });
  });
}
