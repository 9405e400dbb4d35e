import * as bunTest from "bun:test";
import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Type } from "@sinclair/typebox";
import { createMemoryJobQueue } from "../../adapters/memory/job-queue.ts";
import { createMemoryStores } from "../../adapters/memory/mod.ts";
import { openMongoStores } from "../../adapters/mongo/mod.ts";
import { openPgliteStores } from "../../adapters/postgres/mod.ts";
import { jobKind } from "../../core/jobs/kind.ts";
import type { Job } from "../../core/jobs/kind.ts";
import { freshMongoDatabase, sharedMongo } from "../support/mongo-server.ts";
import { runJobQueueContract } from "./job-queue.contract.ts";

const note = jobKind({
  name: "test.journal",
  payload: Type.Object({ id: Type.String() }, { additionalProperties: false }),
  dedupKey: (p) => p.id,
});

// The in-process queue over a journal keeps the contract of every queue.
runJobQueueContract(
  "in-process with a journal (memory store)",
  async (log) => createMemoryJobQueue(log, createMemoryStores().jobJournal),
  bunTest,
);

/** The embedded store (PGlite in a data directory) and MongoDB: what a restarted server resumes. */
for (
  const [label, open] of [
    ["pglite", async () => {
      const dir = mkdtempSync(join(tmpdir(), "wks-journal-"));
      return { reopen: () => openPgliteStores(dir), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
    }],
    ["mongo", async () => {
      const db = freshMongoDatabase(await sharedMongo());
      return { reopen: () => openMongoStores(db), cleanup: () => {} };
    }],
  ] as const
) {
  describe(`in-process queue with the ${label} journal`, () => {
    test("jobs queued, delayed or running when the process stopped run after a restart, each once", async () => {
      const { reopen, cleanup } = await open();
      try {
        const first = await reopen();
        const q1 = createMemoryJobQueue(() => {}, first.jobJournal);
        let started!: () => void;
        const holding = new Promise<void>((r) => (started = r));
        q1.consume(async (job) => {
          if ((job.payload as { id: string }).id !== "running") return;
          started();
          await new Promise(() => {}); // the process dies in the middle of this one
        });
        await q1.enqueue(note, "ws-1", { id: "running" });
        await holding;
        await q1.enqueue(note, "ws-1", { id: "queued" });
        await q1.enqueue(note, "ws-1", { id: "queued" });
        await q1.enqueue(note, "ws-1", { id: "later" }, { delayMs: 300 });
        await q1.close(0);
        await first.close();

        const second = await reopen();
        const ran: string[] = [];
        const q2 = createMemoryJobQueue(() => {}, second.jobJournal);
        q2.consume(async (job: Job) => void ran.push((job.payload as { id: string }).id));
        await q2.drain();
        const deadline = Date.now() + 10_000;
        while (ran.length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
        expect([...ran].sort()).toEqual(["later", "queued", "running"]);
        await q2.drain();
        expect(await second.jobJournal.pending(100)).toEqual([]);
        await q2.close();
        await second.close();
      } finally {
        cleanup();
      }
    });
  });
}
