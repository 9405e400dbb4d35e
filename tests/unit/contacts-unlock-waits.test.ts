import { describe, expect, test } from "bun:test";
import { openUnlockWaits, unlockDone, unlockWait } from "../../core/contacts/unlock-waits.ts";
import { uuidv7 } from "../../core/kernel/ids.ts";

/** Which settles first: the wait, or a plain timer of `ms`. */
const first = (wait: Promise<void>, ms: number) =>
  Promise.race([wait.then(() => "woken" as const), new Promise<"timer">((r) => setTimeout(() => r("timer"), ms))]);

describe("unlock waits", () => {
  test("unlockWait().until() resolves as soon as unlockDone() is said for its token, long before its own timer", async () => {
    const ws = uuidv7();
    const token = uuidv7();
    const wait = unlockWait(ws, token).until(60_000);
    setTimeout(() => unlockDone(ws, token), 5);
    expect(await first(wait, 5_000)).toBe("woken");
    expect(openUnlockWaits()).toBe(0);
  });

  test("unlockDone() said between taking the wait and calling until() is not lost", async () => {
    const ws = uuidv7();
    const token = uuidv7();
    const wait = unlockWait(ws, token);
    unlockDone(ws, token);
    expect(await first(wait.until(60_000), 5_000)).toBe("woken");
  });

  test("a wait hears only its own workspace and token; unheard, it ends after its ms and leaves nothing behind", async () => {
    const ws = uuidv7();
    const token = uuidv7();
    const wait = unlockWait(ws, token).until(200);
    unlockDone(ws, uuidv7());
    unlockDone(uuidv7(), token);
    expect(await first(wait, 100)).toBe("timer");
    await wait;
    expect(openUnlockWaits()).toBe(0);
  });

  test("every waiter of a token wakes; a cancelled wait is dropped at once", async () => {
    const ws = uuidv7();
    const token = uuidv7();
    const waits = Array.from({ length: 5 }, () => unlockWait(ws, token).until(60_000));
    const cancelled = unlockWait(ws, uuidv7());
    expect(openUnlockWaits()).toBe(6);
    cancelled.cancel();
    expect(openUnlockWaits()).toBe(5);
    unlockDone(ws, token);
    expect(await first(Promise.all(waits).then(() => {}), 5_000)).toBe("woken");
    expect(openUnlockWaits()).toBe(0);
  });
});
