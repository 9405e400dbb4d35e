import type { ConsumableJobQueue, JobJournal } from "../core/jobs/mod.ts";
import { createMemoryJobQueue } from "../adapters/memory/job-queue.ts";
import type { Config } from "./config.ts";
import type { Logger } from "./http/logger.ts";

/** The BullMQ queue's name: every server and worker of a deployment shares it. */
export const JOB_QUEUE_NAME = "wks-jobs";

/**
 * The job queue a configuration gets (docs/decisions/024-job-queues.md): BullMQ on Redis with
 * REDIS_URL, else BullMQ on PostgreSQL with DATABASE_URL (both shared by every process of the
 * deployment); else the in-process queue over the primary store's journal (the embedded default,
 * and MongoDB without Redis), which only this process consumes and which survives its restarts.
 */
export async function openJobQueue(
  config: Config,
  logger: Logger,
  journal: JobJournal,
): Promise<{ queue: ConsumableJobQueue; label: string }> {
  const log = (level: "info" | "warn" | "error", msg: string, fields?: Record<string, unknown>) => logger.log(level, msg, fields);
  const opts = { name: JOB_QUEUE_NAME, leaseMs: config.jobLeaseMs };
  if (config.redisUrl) {
    const { openRedisJobQueue } = await import("../adapters/bullmq/redis.ts");
    return { queue: await openRedisJobQueue(config.redisUrl, log, opts), label: "bullmq (redis)" };
  }
  if (config.databaseUrl) {
    const { openPostgresJobQueue } = await import("../adapters/bullmq/postgres.ts");
    const bounds = { statementTimeoutMs: config.dbStatementTimeoutMs, connectTimeoutMs: config.dbConnectTimeoutMs };
    return { queue: await openPostgresJobQueue(config.databaseUrl, log, { ...opts, ...bounds }), label: "bullmq (postgres)" };
  }
  return { queue: createMemoryJobQueue(log, journal), label: "in-process (journal in the primary store)" };
}
