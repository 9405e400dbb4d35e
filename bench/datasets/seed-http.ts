/**
 * Seeds records through an HTTP API, one POST per record, with a bounded number in flight, printing
 * progress, the duration and records/s. This is the "create N records" measurement of the
 * collections benchmark: the same code times our API and PocketBase.
 */
import { recordSeeding } from "../summary.ts";

export interface HttpSeedOptions {
  /** Who is seeded, e.g. "ours (postgres)", "PocketBase": the progress lines and the summary. */
  label: string;
  count: number;
  /** Requests in flight (default 32). */
  concurrency?: number;
  /** The request creating record `i`. */
  request(i: number): { url: string; init: RequestInit };
  /** A progress line at most this often (default 10 s) and at the end. */
  progressEveryMs?: number;
}

export interface HttpSeedResult {
  inserted: number;
  seconds: number;
  perSecond: number;
}

/** Records in flight while seeding through HTTP (BENCH_RECORDS_SEED_CONCURRENCY, default 32). */
export function httpSeedConcurrency(): number {
  const raw = process.env.BENCH_RECORDS_SEED_CONCURRENCY;
  if (raw === undefined || raw === "") return 32;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) {
    throw new Error(`Invalid BENCH_RECORDS_SEED_CONCURRENCY: expected an integer >= 1, got ${raw}`);
  }
  return value;
}

export async function seedOverHttp(options: HttpSeedOptions): Promise<HttpSeedResult> {
  const concurrency = options.concurrency ?? httpSeedConcurrency();
  const every = options.progressEveryMs ?? 10_000;
  const total = options.count.toLocaleString("en-US");
  console.log(`  ${options.label}: creating ${total} records through HTTP (${concurrency} in flight)...`);
  const started = performance.now();
  let nextIndex = 0;
  let inserted = 0;
  let lastReport = started;
  let failure: Error | null = null;
  const rate = () => Math.round(inserted / ((performance.now() - started) / 1000));

  const worker = async () => {
    while (!failure) {
      const i = nextIndex++;
      if (i >= options.count) return;
      const { url, init } = options.request(i);
      try {
        const response = await fetch(url, { ...init, signal: AbortSignal.timeout(60_000) });
        const text = await response.text();
        if (response.status < 200 || response.status > 299) {
          throw new Error(`${init.method ?? "GET"} ${url} answered ${response.status}: ${text.slice(0, 500)}`);
        }
      } catch (error) {
        failure ??= new Error(`${options.label}: creating records failed after ${inserted} of ${total}: ${(error as Error).message}`, {
          cause: error,
        });
        return;
      }
      inserted++;
      const now = performance.now();
      if (now - lastReport >= every) {
        lastReport = now;
        console.log(`  ${options.label}: created ${inserted.toLocaleString("en-US")} of ${total} records (${rate()}/s)`);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
  if (failure) throw failure;
  const seconds = (performance.now() - started) / 1000;
  const perSecond = inserted / seconds;
  console.log(
    `  ${options.label}: created ${inserted.toLocaleString("en-US")} records in ${seconds.toFixed(1)} s ` +
      `(${Math.round(perSecond)} records/s, ${concurrency} in flight)`,
  );
  recordSeeding({ label: options.label, records: inserted, seconds, concurrency });
  return { inserted, seconds, perSecond };
}
