/**
 * Background jobs. Use cases enqueue; a worker runs them later (workers/). The server composes an
 * in-process queue (workers/in-process-queue.ts); a queue shared by several instances (Redis,
 * e.g. BullMQ) implements the same port.
 */
export type Job = { type: "repo.index"; workspaceId: string; repoId: string };

export interface JobQueue {
  /**
   * Queues a job. At-most-once delivery is not promised: handlers are idempotent. A job equal to
   * one still waiting is not queued twice.
   */
  enqueue(job: Job): Promise<void>;
}

/** The key under which equal jobs collapse while waiting. */
export function jobKey(job: Job): string {
  return `${job.type}:${job.workspaceId}:${job.repoId}`;
}
