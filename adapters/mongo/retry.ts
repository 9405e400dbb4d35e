/** Pauses of the adapter's retry loops (a write that met a concurrent one tries again). */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A short randomised pause between retries of a conflicting write. */
export const backoff = (attempt: number) => sleep(Math.random() * Math.min(50, 2 + attempt * 3));
