/**
 * How an unlock waits for a key another request holds (ADR 061). The request holding a token says
 * when it is done with it (`unlockDone`: after its finish, a refused begin, a take-over's repair or
 * the sweep's expiry), and a waiter in the same process wakes at once, with no polling. A holder in
 * another process (another server instance, or the sweep in a worker) cannot reach it: the waiter
 * re-reads the key at least every `ms` it passes to `until` (a timer), and gives up at a deadline
 * its caller measures on the clock port. Each waiter is one entry under `<workspace>:<token>`,
 * removed when it wakes or is cancelled, so nothing outlives a wait.
 */

const waiters = new Map<string, Set<() => void>>();
const keyOf = (workspaceId: string, token: string) => `${workspaceId}:${token}`;

/** Wakes every waiter of the token in this process; nothing when none waits. */
export function unlockDone(workspaceId: string, token: string): void {
  const key = keyOf(workspaceId, token);
  const waiting = waiters.get(key);
  if (!waiting) return;
  waiters.delete(key);
  for (const wake of waiting) wake();
}

export interface UnlockWait {
  /** Resolves when the token's request says it is done, or after `ms`, whichever comes first; then the wait is over. */
  until(ms: number): Promise<void>;
  /** Ends the wait without waiting (the caller learned what it needed otherwise). */
  cancel(): void;
}

/**
 * A wait on the token, listening from now on: take it before reading the key, so a holder that
 * finishes between the read and `until` still wakes it.
 */
export function unlockWait(workspaceId: string, token: string): UnlockWait {
  const key = keyOf(workspaceId, token);
  let said = false;
  let wake: (() => void) | null = null;
  const heard = () => {
    said = true;
    wake?.();
  };
  const set = waiters.get(key) ?? new Set();
  set.add(heard);
  waiters.set(key, set);
  const cancel = () => {
    set.delete(heard);
    if (set.size === 0 && waiters.get(key) === set) waiters.delete(key);
  };
  return {
    until(ms) {
      if (said) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          cancel();
          resolve();
        }, ms);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    },
    cancel,
  };
}

/** How many waits are open in this process (for tests: none is left behind). */
export const openUnlockWaits = (): number => [...waiters.values()].reduce((n, s) => n + s.size, 0);
