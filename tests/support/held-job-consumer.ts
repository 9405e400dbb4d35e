/**
 * A consumer process for lease tests: takes one job off a BullMQ queue and never finishes it, so
 * the test can SIGKILL it mid-job. Args: `redis|postgres <url> <queue name>`; prints STARTED once
 * it holds the job.
 */
import { openPostgresJobQueue } from "../../adapters/bullmq/postgres.ts";
import { openRedisJobQueue } from "../../adapters/bullmq/redis.ts";

const [backend, url, name] = process.argv.slice(2) as [string, string, string];
const opts = { name, attempts: 1, leaseMs: 1_000, concurrency: 1 };
const q = backend === "redis" ? await openRedisJobQueue(url, () => {}, opts) : await openPostgresJobQueue(url, () => {}, opts);
q.consume(async () => {
  console.log("STARTED");
  await new Promise(() => {});
});
