import { createNodeRedisClient } from "bullmq";
import { createClient } from "redis";
import type { ConsumableJobQueue, JobLog } from "../../core/jobs/ports.ts";
import { type BullJobQueueOptions, createBullJobQueue } from "./job-queue.ts";

/** BullMQ on Redis, through the project's own `redis` (node-redis) client. */
export async function openRedisJobQueue(
  url: string,
  log: JobLog,
  opts: Omit<BullJobQueueOptions, "connection" | "backend" | "onClose">,
): Promise<ConsumableJobQueue> {
  const raw = createClient({ url });
  raw.on("error", (e: Error) => log("warn", "job queue redis error", { error: e.message }));
  await raw.connect();
  return createBullJobQueue(log, { ...opts, connection: createNodeRedisClient(raw), onClose: async () => void (await raw.quit()) });
}
