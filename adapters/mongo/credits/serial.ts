/**
 * Runs tasks of one key one after the other within this process. Correctness does not depend on
 * it (the unique `(workspace_id, seq)` does, across processes too); it keeps a hot account's
 * concurrent writers of one instance from racing for the same seq and retrying quadratically.
 */
export class KeyedSerial {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const prev = this.tails.get(key) ?? Promise.resolve();
    const next = prev.then(task, task);
    const tail = next.catch(() => {});
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return next;
  }
}
