/**
 * Writes of one credit account combined within this process (ADR 050): at most `width` statements
 * of this process on one account's row at a time; what arrives meanwhile queues here and goes out
 * as one statement when a turn frees (every queued write of one kind that fits, up to its `max`).
 * A write that finds a turn free goes out at once, alone: batching costs an idle account nothing.
 *
 * The row is the serial point of a hot account: each statement holds its lock until it commits, and
 * 32 waiters each wake, re-read the row's new version and queue again (the lock manager and the
 * re-check cost PostgreSQL more than the write). One statement for k writes updates the row once,
 * commits once and plans once. Correctness does not depend on it: each kind's statement is atomic
 * for its whole batch, and across processes the guarded statements queue on the row as before.
 */
export interface AccountWrite<I, O> {
  /** Writes `items` (one account's) in one statement; answers in their order. */
  run(items: readonly I[]): Promise<O[]>;
  /** Whether `item` may join a batch already holding `batch` (e.g. no key written twice). */
  fits(batch: readonly I[], item: I): boolean;
  /** Most items in one statement. */
  max: number;
}

interface Waiting {
  kind: AccountWrite<unknown, unknown>;
  item: unknown;
  resolve: (o: unknown) => void;
  reject: (e: unknown) => void;
}

interface Account {
  active: number;
  queue: Waiting[];
}

export class AccountBatches {
  readonly #accounts = new Map<string, Account>();

  constructor(private readonly width = 2) {}

  run<I, O>(account: string, kind: AccountWrite<I, O>, item: I): Promise<O> {
    let a = this.#accounts.get(account);
    if (!a) this.#accounts.set(account, a = { active: 0, queue: [] });
    return new Promise<O>((resolve, reject) => {
      const w = { kind, item, resolve, reject } as Waiting;
      if (a.active >= this.width) {
        a.queue.push(w);
        return;
      }
      a.active++;
      this.#send(account, a, [w]);
    });
  }

  #send(account: string, a: Account, batch: Waiting[]): void {
    const kind = batch[0]!.kind;
    kind.run(batch.map((w) => w.item)).then(
      (outs) => batch.forEach((w, i) => w.resolve(outs[i])),
      (e) => batch.forEach((w) => w.reject(e)),
    ).finally(() => {
      const next = this.#take(a);
      if (next) this.#send(account, a, next); // the turn passes on: `active` stays
      else if (--a.active === 0) this.#accounts.delete(account);
    });
  }

  /** The next batch: the oldest waiting write, and every later one of its kind that fits, in order. */
  #take(a: Account): Waiting[] | null {
    const first = a.queue[0];
    if (!first) return null;
    const kind = first.kind;
    const batch: Waiting[] = [];
    const items: unknown[] = [];
    a.queue = a.queue.filter((w) => {
      if (w.kind !== kind || batch.length >= kind.max || (batch.length > 0 && !kind.fits(items, w.item))) return true;
      batch.push(w);
      items.push(w.item);
      return false;
    });
    return batch;
  }
}
