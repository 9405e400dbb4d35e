import * as bunTest from "bun:test";
import { Type } from "@sinclair/typebox";
import { jobKind } from "../../core/jobs/kind.ts";
import { openPostgresJobQueue } from "../../adapters/bullmq/postgres.ts";
import { openRedisJobQueue } from "../../adapters/bullmq/redis.ts";
import { freshDatabase, sharedPostgres } from "../support/postgres-server.ts";
import { sharedRedis } from "../support/redis-server.ts";
import { runJobQueueContract } from "./job-queue.contract.ts";

// Each test gets a queue of its own name; one attempt, so a failure is final at once; one job at a
// a time, as the contract's gate tests assume (production runs several: BullJobQueueOptions.concurrency).
let n = 0;
const name = () => `contract-${process.pid}-${++n}`;
const redis = await sharedRedis();
runJobQueueContract(
  "bullmq on redis",
  (log) => openRedisJobQueue(redis, log, { name: name(), attempts: 1, leaseMs: 2_000, concurrency: 1 }),
  bunTest,
);
const pg = await freshDatabase(await sharedPostgres());
runJobQueueContract(
  "bullmq on postgres",
  (log) => openPostgresJobQueue(pg, log, { name: name(), attempts: 1, leaseMs: 2_000, concurrency: 1 }),
  bunTest,
);

const { describe, expect, test } = bunTest;
const held = jobKind({
  name: "test.held",
  payload: Type.Object({ id: Type.String() }, { additionalProperties: false }),
  dedupKey: (p) => p.id,
});

const consumer = new URL("../support/held-job-consumer.ts", import.meta.url).pathname;

for (
  const [label, url, open] of [
    ["redis", redis, (n: string) => openRedisJobQueue(redis, () => {}, { name: n, attempts: 1, leaseMs: 1_000, concurrency: 1 })],
    ["postgres", pg, (n: string) => openPostgresJobQueue(pg, () => {}, { name: n, attempts: 1, leaseMs: 1_000, concurrency: 1 })],
  ] as const
) {
  describe(`bullmq on ${label}: leases`, () => {
    test("a job whose consumer process is SIGKILLed mid-job is taken over by another consumer after its lease", async () => {
      const queueName = name();
      const producer = await open(queueName);
      await producer.enqueue(held, "ws-1", { id: "job" });
      const child = Bun.spawn([process.execPath, consumer, label, url, queueName], { stdout: "pipe", stderr: "inherit" });
      const reader = child.stdout.getReader();
      let out = "";
      const startedBy = Date.now() + 20_000;
      while (!out.includes("STARTED") && Date.now() < startedBy) {
        const { value, done } = await reader.read();
        if (done) break;
        out += new TextDecoder().decode(value);
      }
      expect(out).toContain("STARTED");
      child.kill("SIGKILL");
      await child.exited;
      const ran: string[] = [];
      producer.consume(async (job) => void ran.push((job.payload as { id: string }).id));
      const deadline = Date.now() + 20_000;
      while (ran.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(ran).toEqual(["job"]);
      await producer.close(1_000);
    });

    test("close() hands a job that outlasts its grace back to the queue: another consumer runs it before its lease lapses", async () => {
      const queueName = name();
      const long = (log: (msg: string, fields?: Record<string, unknown>) => void = () => {}) =>
        label === "redis"
          ? openRedisJobQueue(redis, (_l, msg, f) => log(msg, f), { name: queueName, attempts: 1, leaseMs: 30_000, concurrency: 1 })
          : openPostgresJobQueue(pg, (_l, msg, f) => log(msg, f), { name: queueName, attempts: 1, leaseMs: 30_000, concurrency: 1 });
      const logged: string[] = [];
      const first = await long((msg) => void logged.push(msg));
      let started!: () => void;
      const running = new Promise<void>((r) => (started = r));
      first.consume(async () => {
        started();
        await new Promise(() => {}); // never finishes in this consumer
      });
      await first.enqueue(held, "ws-1", { id: "job" });
      await running;
      const closedAt = Date.now();
      await first.close(100);
      expect(logged).toContain("jobs still running at shutdown handed back to the queue");
      const second = await long();
      const ran: string[] = [];
      second.consume(async (job) => void ran.push((job.payload as { id: string }).id));
      while (ran.length === 0 && Date.now() < closedAt + 20_000) await new Promise((r) => setTimeout(r, 50));
      expect(ran).toEqual(["job"]);
      expect(Date.now() - closedAt).toBeLessThan(20_000); // the lease is 30 s
      await second.close(1_000);
    });
  });
}
