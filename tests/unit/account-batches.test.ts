import { describe, expect, test } from "bun:test";
import { AccountBatches, type AccountWrite } from "../../adapters/postgres/credits/account-batches.ts";

/** A write kind that records each statement it was given, answering each item doubled. */
function recorder(max = 16, fits: (batch: readonly number[], item: number) => boolean = () => true) {
  const statements: number[][] = [];
  let active = 0;
  let most = 0;
  const kind: AccountWrite<number, number> = {
    max,
    fits,
    async run(items) {
      statements.push([...items]);
      most = Math.max(most, ++active);
      await new Promise((resolve) => setTimeout(resolve, 5));
      active--;
      return items.map((i) => i * 2);
    },
  };
  return { kind, statements, most: () => most };
}

describe("AccountBatches", () => {
  test("a write that finds a turn free goes out alone; what queues meanwhile goes out as one statement, in arrival order", async () => {
    const batches = new AccountBatches(2);
    const w = recorder();
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => batches.run("a", w.kind, i)));
    expect(answers).toEqual(Array.from({ length: 10 }, (_, i) => i * 2));
    expect(w.statements).toEqual([[0], [1], [2, 3, 4, 5, 6, 7, 8, 9]]);
    expect(w.most()).toBe(2);
  });

  test("a statement takes at most `max` items, only those that fit, and one kind at a time; other accounts are not held up", async () => {
    const batches = new AccountBatches(1);
    const odd = recorder(3, (batch, item) => batch.every((b) => b % 2 === item % 2));
    const other = recorder();
    const all = Promise.all([
      ...Array.from({ length: 9 }, (_, i) => batches.run("a", odd.kind, i)),
      batches.run("a", other.kind, 100),
      batches.run("a", odd.kind, 9),
    ]);
    expect(await batches.run("b", other.kind, 7)).toBe(14);
    expect(await all).toEqual([...Array.from({ length: 9 }, (_, i) => i * 2), 200, 18]);
    // 0 alone; then the oldest waiting (1) with the odd ones after it, 3 at most; then the even ones.
    expect(odd.statements).toEqual([[0], [1, 3, 5], [2, 4, 6], [7, 9], [8]]);
    expect(other.statements).toEqual([[7], [100]]);
  });

  test("a failed statement fails each of its items and passes the turn on", async () => {
    const batches = new AccountBatches(1);
    let calls = 0;
    const failing: AccountWrite<number, number> = {
      max: 16,
      fits: () => true,
      async run() {
        calls++;
        await new Promise((resolve) => setTimeout(resolve, 2));
        throw new Error("refused");
      },
    };
    const outcomes = await Promise.allSettled(Array.from({ length: 5 }, (_, i) => batches.run("a", failing, i)));
    expect(outcomes.map((o) => o.status === "rejected" && (o.reason as Error).message)).toEqual(Array(5).fill("refused"));
    expect(calls).toBe(2);
    expect(await batches.run("a", recorder().kind, 4)).toBe(8);
  });
});
