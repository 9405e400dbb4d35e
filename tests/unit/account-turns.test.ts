import { describe, expect, test } from "bun:test";
import { AccountTurns } from "../../adapters/postgres/credits/account-turns.ts";

describe("AccountTurns", () => {
  test("at most 4 writes of one account at a time, in arrival order; other accounts are not held up", async () => {
    const turns = new AccountTurns();
    let active = 0;
    let most = 0;
    const started: number[] = [];
    const write = (i: number) => async () => {
      started.push(i);
      most = Math.max(most, ++active);
      await new Promise((resolve) => setTimeout(resolve, 2));
      active--;
      return i;
    };
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => turns.run("a", write(i))));
    expect(results).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(most).toBe(4);
    expect(started).toEqual(Array.from({ length: 20 }, (_, i) => i));

    let other = false;
    const busy = Array.from({ length: 4 }, () => turns.run("a", () => new Promise((resolve) => setTimeout(resolve, 20))));
    await turns.run("b", () => Promise.resolve(other = true));
    expect(other).toBe(true);
    await Promise.all(busy);
  });

  test("a failed write passes its turn on and its error to its caller", async () => {
    const turns = new AccountTurns();
    const failing = await Promise.allSettled(Array.from({ length: 6 }, () => turns.run("a", () => Promise.reject(new Error("refused")))));
    expect(failing.map((f) => f.status === "rejected" && (f.reason as Error).message)).toEqual(Array(6).fill("refused"));
    expect(await turns.run("a", () => Promise.resolve("after"))).toBe("after");
  });
});
