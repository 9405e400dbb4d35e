/**
 * Writes of one credit account taken in turns within this process (ADR 045): at most `width` of
 * this process's requests at a time on one account's row; the others queue here, in JavaScript,
 * rather than on the row's lock in PostgreSQL, where each waiter sleeps, wakes when the row is
 * released and re-reads its new version (the lock manager and the re-check cost PostgreSQL more
 * CPU than the write). Correctness does not depend on it: the guarded statements stay atomic across
 * processes; this only bounds how many of this process's writers wait on the row.
 */
export class AccountTurns {
  readonly #accounts = new Map<string, { active: number; waiting: (() => void)[] }>();

  constructor(private readonly width = 4) {}

  async run<T>(account: string, write: () => Promise<T>): Promise<T> {
    let a = this.#accounts.get(account);
    if (!a) this.#accounts.set(account, a = { active: 0, waiting: [] });
    if (a.active >= this.width) await new Promise<void>((resolve) => a!.waiting.push(resolve));
    else a.active++;
    try {
      return await write();
    } finally {
      const next = a.waiting.shift();
      if (next) next(); // the turn passes on: `active` stays
      else if (--a.active === 0) this.#accounts.delete(account);
    }
  }
}
