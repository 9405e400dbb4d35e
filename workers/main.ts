/**
 * `npm run worker`: consumes background jobs with no HTTP server (DESIGN, cross-cutting item 5).
 *
 * A worker process needs a queue other processes reach. The only queue so far is in-process
 * (adapters/memory/job-queue.ts): its jobs live in the memory of the server that queued them, and
 * that server runs them itself. So this entry point refuses to start, saying why, rather than
 * idle as if it worked. With a shared queue (BullMQ, next) it composes core as the server does,
 * minus HTTP, hands the queue `jobRunner` (registry.ts), and closes the queue on SIGTERM
 * (docs/decisions/015-job-kinds-and-workers.md).
 */
process.stderr.write(
  "Cannot start a worker: there is no shared job queue to consume. Jobs are queued in-process, in the " +
    "memory of the server that queued them, which runs them itself; a worker process needs a queue " +
    "that several processes share (BullMQ, not built yet). See docs/decisions/015-job-kinds-and-workers.md.\n",
);
process.exit(1);
