import { createPostgresBackend } from "bullmq";
import type { ConsumableJobQueue, JobLog } from "../../core/jobs/ports.ts";
import { type BullJobQueueOptions, createBullJobQueue } from "./job-queue.ts";

/**
 * BullMQ on its PostgreSQL backend (through `pg`), in its own schema (`bullmq` by default) of
 * the service's database; its migrations run at connect.
 */
export function openPostgresJobQueue(
  url: string,
  log: JobLog,
  opts: Omit<BullJobQueueOptions, "connection" | "backend" | "onClose"> & { schema?: string },
): Promise<ConsumableJobQueue> {
  const { schema, ...rest } = opts;
  const connection = { connectionString: url, migrate: true, max: 4, ...(schema ? { schema } : {}) };
  return Promise.resolve(createBullJobQueue(log, { ...rest, connection, backend: createPostgresBackend }));
}
