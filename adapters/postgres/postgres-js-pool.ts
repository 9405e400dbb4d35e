import type postgres from "postgres";

/** The least time between two replacements of one pool; a loss within it replaces the pool at its end. */
const REPLACE_INTERVAL_MS = 100;

/**
 * One postgres.js pool that is replaced, whole, once a connection of it is lost
 * (docs/decisions/054-database-outages.md). postgres.js keeps each connection object for the
 * pool's life and reconnects it on demand; but a connection whose socket closed while a write
 * was pending keeps that write's timer and bytes, so every later attempt to reconnect it sends
 * nothing and ends in `CONNECT_TIMEOUT`: after PostgreSQL restarted, requests that drew such a
 * connection failed for minutes. A lost connection cannot be told apart from a poisoned one from
 * outside, so the pool that lost one is retired: new work goes to a fresh pool at once, and the
 * old one is ended in the background, its in-flight statements given `drainS` to finish.
 */
export class ReplaceablePool {
  private current: postgres.Sql | null = null;
  private replacedAt = -Infinity;
  private pending: ReturnType<typeof setTimeout> | null = null;
  private retiring = new Set<Promise<void>>();
  private ended = false;

  constructor(private readonly open: () => postgres.Sql, private readonly drainS: number) {}

  /** The pool new work goes to (opened on first use). */
  get(): postgres.Sql {
    return this.current ??= this.open();
  }

  /** Work on `sql` lost its connection: when `sql` is still the pool new work goes to, retire it. */
  lost(sql: postgres.Sql): void {
    if (this.ended || sql !== this.current || this.pending) return;
    const wait = this.replacedAt + REPLACE_INTERVAL_MS - performance.now();
    if (wait > 0) {
      this.pending = setTimeout(() => {
        this.pending = null;
        this.replace();
      }, wait);
      return;
    }
    this.replace();
  }

  private replace(): void {
    const old = this.current;
    if (this.ended || !old) return;
    this.current = null;
    this.replacedAt = performance.now();
    const retired = old.end({ timeout: this.drainS }).catch(() => {}).finally(() => this.retiring.delete(retired));
    this.retiring.add(retired);
  }

  /** Ends the pool and any retired one still draining, within `timeoutS` (statements still running then are dropped). */
  async end(timeoutS: number): Promise<void> {
    this.ended = true;
    if (this.pending) clearTimeout(this.pending);
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      Promise.all([this.current?.end({ timeout: timeoutS }), ...this.retiring]),
      new Promise((resolve) => (timer = setTimeout(resolve, timeoutS * 1000))),
    ]);
    clearTimeout(timer);
  }
}
