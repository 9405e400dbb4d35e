/**
 * Seeds a `TopicDataset` through the store port, as the server would write each topic: one
 * `stores.topics.insert({ topic, event })` per topic (the topic, its `topic.created` event and its
 * tags in one atomic write), with a bounded number of inserts in flight.
 */
import type { TopicStore } from "../../core/topics/ports.ts";
import { topicEvent } from "../../core/topics/topic-change.ts";
import type { TopicDataset } from "./topics.ts";

/** What can be seeded: a `TopicDataset`, or one that decorates it (datasets/anchors.ts). */
export type SeedSource = Pick<TopicDataset, "count" | "topics">;

export interface SeedOptions {
  /** Inserts in flight (default 24). */
  concurrency?: number;
  /** Prefix of the progress lines, e.g. "postgres". */
  label?: string;
  /** A progress line at most this often (default 10 s) and at the end. */
  progressEveryMs?: number;
  log?: (line: string) => void;
  /** "Now" for the dataset's timestamps (default: the start of the seeding). */
  anchor?: Date;
}

export interface SeedResult {
  inserted: number;
  seconds: number;
}

export async function seedTopics(
  topics: Pick<TopicStore, "insert">,
  workspaceId: string,
  dataset: SeedSource,
  options: SeedOptions = {},
): Promise<SeedResult> {
  const concurrency = options.concurrency ?? 24;
  const log = options.log ?? ((line: string) => console.log(line));
  const label = options.label ? `${options.label}: ` : "";
  const every = options.progressEveryMs ?? 10_000;
  const source = dataset.topics(workspaceId, options.anchor ?? new Date());
  const started = performance.now();
  let inserted = 0;
  let lastReport = started;
  let failure: Error | null = null;

  const rate = () => Math.round(inserted / ((performance.now() - started) / 1000));
  const worker = async () => {
    while (!failure) {
      // The generator is synchronous: each `next()` completes before another worker can call it.
      const next = source.next();
      if (next.done) return;
      const topic = next.value;
      const event = topicEvent(null, topic, "topic.created", new Date(topic.created_at), { status: topic.status });
      try {
        const result = await topics.insert({ topic, event });
        if (result !== "ok") throw new Error(`insert answered ${result} for slug ${topic.slug}`);
      } catch (error) {
        failure ??= new Error(`Seeding topics failed after ${inserted} of ${dataset.count}: ${(error as Error).message}`, { cause: error });
        return;
      }
      inserted++;
      const now = performance.now();
      if (now - lastReport >= every) {
        lastReport = now;
        log(`  ${label}seeded ${inserted.toLocaleString("en-US")} of ${dataset.count.toLocaleString("en-US")} topics (${rate()}/s)`);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
  if (failure) throw failure;
  const seconds = (performance.now() - started) / 1000;
  log(`  ${label}seeded ${inserted.toLocaleString("en-US")} topics in ${seconds.toFixed(1)} s (${rate()}/s, ${concurrency} in flight)`);
  return { inserted, seconds };
}
