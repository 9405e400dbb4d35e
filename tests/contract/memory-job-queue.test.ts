import * as bunTest from "bun:test";
import { describe, expect, test } from "bun:test";
import { Type } from "@sinclair/typebox";
import { createMemoryJobQueue } from "../../adapters/memory/job-queue.ts";
import { jobKind } from "../../core/jobs/kind.ts";
import { runJobQueueContract } from "./job-queue.contract.ts";

runJobQueueContract("memory", async (log) => createMemoryJobQueue(log), bunTest);

const tick = jobKind({ name: "test.tick", payload: Type.Object({ n: Type.Integer() }), dedupKey: (p) => String(p.n) });

describe("createMemoryJobQueue()", () => {
  test("runs one job at a time, in the order queued, and says no other process sees its jobs", async () => {
    const q = createMemoryJobQueue(() => {});
    const ran: number[] = [];
    let running = 0;
    let most = 0;
    q.consume(async (job) => {
      running++;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, 2));
      running--;
      ran.push((job.payload as { n: number }).n);
    });
    for (const n of [3, 1, 2]) await q.enqueue(tick, "w", { n });
    await q.drain();
    expect(ran).toEqual([3, 1, 2]);
    expect(most).toBe(1);
    expect(q.shared).toBe(false);
    await q.close();
  });

  test("close() drops the waiting jobs, saying how many, and enqueue() afterwards is logged as dropped", async () => {
    const logs: string[] = [];
    const q = createMemoryJobQueue((level, msg, fields) => void logs.push(`${level} ${msg} ${fields?.count ?? fields?.key ?? ""}`));
    await q.enqueue(tick, "w", { n: 1 });
    await q.enqueue(tick, "w", { n: 2 });
    await q.close();
    await q.enqueue(tick, "w", { n: 3 });
    expect(logs).toEqual(["warn jobs dropped at shutdown 2", "warn job dropped: the queue is closed test.tick:w:3"]);
  });

  test("a delay beyond a timer's 24.8-day limit waits, instead of running at once", async () => {
    const q = createMemoryJobQueue(() => {});
    const ran: number[] = [];
    q.consume(async (job) => void ran.push((job.payload as { n: number }).n));
    await q.enqueue(tick, "w", { n: 1 }, { delayMs: 30 * 24 * 3_600_000 });
    await q.enqueue(tick, "w", { n: 2 });
    await q.drain();
    await new Promise((r) => setTimeout(r, 20));
    expect(ran).toEqual([2]);
    await q.close();
  });

  test("consume() takes one consumer", () => {
    const q = createMemoryJobQueue(() => {});
    q.consume(async () => {});
    expect(() => q.consume(async () => {})).toThrow(/already has a consumer/);
  });
});
