import { createPostgresBackend } from "bullmq";
import type { ConsumableJobQueue, JobLog } from "../../core/jobs/ports.ts";
import { type BullJobQueueOptions, createBullJobQueue } from "./job-queue.ts";

export interface PostgresJobQueueBounds {
  /** PostgreSQL's `statement_timeout` on the queue's connections, and the client's wait for an answer (plus 1 s). */
  statementTimeoutMs?: number;
  /** How long opening a connection may take. */
  connectTimeoutMs?: number;
}

/**
 * BullMQ on its PostgreSQL backend (through `pg`), in its own schema (`bullmq` by default) of
 * the service's database; its migrations run at connect. Its `pg` pools get the bounds of the
 * service's own (docs/decisions/054-database-outages.md): `pg` waits for a connection, and for an
 * answer, forever by default.
 */
export function openPostgresJobQueue(
  url: string,
  log: JobLog,
  opts: Omit<BullJobQueueOptions, "connection" | "backend" | "onClose"> & { schema?: string } & PostgresJobQueueBounds,
): Promise<ConsumableJobQueue> {
  const { schema, statementTimeoutMs = 30_000, connectTimeoutMs = 5_000, ...rest } = opts;
  const clientError = (e: Error) => log("warn", "job queue connection error", { error: e.message });
  const connection = {
    // `pg.Pool` listens for a client's errors only while the client is idle: one whose socket dies
    // while BullMQ holds it (its schema check, a query) emits "Connection terminated
    // unexpectedly" to nobody, an uncaught exception that ends the process. Every client gets a
    // listener of its own.
    onConnect: (client: { on(event: "error", listener: (e: Error) => void): unknown }) => void client.on("error", clientError),
    connectionString: url,
    migrate: true,
    max: 4,
    connectionTimeoutMillis: connectTimeoutMs,
    idleTimeoutMillis: 300_000,
    statement_timeout: statementTimeoutMs,
    query_timeout: statementTimeoutMs + 1_000,
    idle_in_transaction_session_timeout: Math.max(statementTimeoutMs, 10_000),
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    ...(schema ? { schema } : {}),
  };
  return Promise.resolve(createBullJobQueue(log, { ...rest, connection, backend: createPostgresBackend }));
}
