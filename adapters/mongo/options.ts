/** The adapter's knobs, injectable so tests can age pending writes. */
export interface MongoStoreOptions {
  /** Wall clock of pending markers (ms). */
  now: () => number;
  /** A pending bootstrap older than this was abandoned by a crashed process. */
  abandonedAfterMs: number;
  /** How long a bootstrap waits for a concurrent, fresh bootstrap of the same slug or e-mail to settle. */
  settleWaitMs: number;
}

export const DEFAULT_OPTIONS: MongoStoreOptions = {
  now: Date.now,
  abandonedAfterMs: 2 * 60_000,
  settleWaitMs: 5_000,
};

/** An instant of the adapter's clock as the ISO string stored in pending markers. */
export const isoAt = (ms: number) => new Date(ms).toISOString();
