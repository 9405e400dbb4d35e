import { describe, expect, test } from "bun:test";
import { TopicReadCache } from "../../core/topics/topic-read-cache.ts";

const one = () => 1;

describe("TopicReadCache", () => {
  test("answers a key at the version it was read at, and asks again at another", async () => {
    const cache = new TopicReadCache();
    let loads = 0;
    const load = (value: string) => () => Promise.resolve((loads++, value));
    expect(await cache.read("1", "k", load("a"), one)).toBe("a");
    expect(await cache.read("1", "k", load("b"), one)).toBe("a");
    expect(loads).toBe(1);
    expect(await cache.read("2", "k", load("c"), one)).toBe("c");
    expect(await cache.read("2", "k", load("d"), one)).toBe("c");
    expect(loads).toBe(2);
  });

  test("concurrent misses of one key at one version share one load", async () => {
    const cache = new TopicReadCache();
    let loads = 0;
    let release = (_: string) => {};
    const load = () => new Promise<string>((resolve) => (loads++, release = resolve));
    const answers = [cache.read("7", "k", load, one), cache.read("7", "k", load, one), cache.read("7", "k", load, one)];
    release("x");
    expect(await Promise.all(answers)).toEqual(["x", "x", "x"]);
    expect(loads).toBe(1);
  });

  test("a slow load at an older version does not replace the answer at a newer one", async () => {
    const cache = new TopicReadCache();
    let release = (_: string) => {};
    const slow = cache.read("3", "k", () => new Promise<string>((resolve) => (release = resolve)), one);
    expect(await cache.read("4", "k", () => Promise.resolve("new"), one)).toBe("new");
    release("old");
    expect(await slow).toBe("old");
    expect(await cache.read("4", "k", () => Promise.resolve("asked again"), one)).toBe("new");
  });

  test("a failed load is not kept", async () => {
    const cache = new TopicReadCache();
    await expect(cache.read("1", "k", () => Promise.reject(new Error("down")), one)).rejects.toThrow("down");
    expect(await cache.read("1", "k", () => Promise.resolve("up"), one)).toBe("up");
  });

  test("keeps at most maxEntries answers and maxChars characters, the least recently used going first", async () => {
    const cache = new TopicReadCache({ maxEntries: 3, maxChars: 1_000 });
    for (const k of ["a", "b", "c"]) await cache.read("1", k, () => Promise.resolve(k), one);
    await cache.read("1", "a", () => Promise.resolve("a again"), one); // a is now the most recent
    await cache.read("1", "d", () => Promise.resolve("d"), one); // b goes
    expect(cache.size).toBe(3);
    expect(await cache.read("1", "b", () => Promise.resolve("b asked again"), one)).toBe("b asked again");
    expect(await cache.read("1", "a", () => Promise.resolve("a asked again"), one)).toBe("a");

    const small = new TopicReadCache({ maxChars: 1_000 });
    await small.read("1", "big", () => Promise.resolve("big"), () => 300); // above a quarter: not kept
    expect(small.size).toBe(0);
    for (const k of ["x", "y", "z", "w", "v"]) await small.read("1", k, () => Promise.resolve(k), () => 240);
    expect(small.size).toBe(4);
  });

  test("keeps a derived value beside a kept answer only, counts it, and drops it with the answer (ADR 049)", async () => {
    const cache = new TopicReadCache({ maxChars: 1_000 });
    const a = await cache.read("1", "a", () => Promise.resolve({ name: "a" }), () => 10);
    cache.set(a, "page", "encoded a", 100);
    expect(cache.get(a, "page")).toBe("encoded a");
    expect(cache.get(a, "other page")).toBeUndefined();
    cache.set(a, "page", "encoded a again", 100);
    expect(cache.get(a, "page")).toBe("encoded a again");
    // An answer not kept (another version, or too large) keeps nothing beside it.
    const loose = { name: "loose" };
    cache.set(loose, "page", "x", 1);
    expect(cache.get(loose, "page")).toBeUndefined();
    const newer = await cache.read("2", "a", () => Promise.resolve({ name: "a at 2" }), () => 10);
    expect(cache.get(a, "page")).toBeUndefined();
    cache.set(a, "page", "encoded a", 100);
    expect(cache.get(a, "page")).toBeUndefined();
    // Beside-values count against the bound: answers of 10 characters, each with 240 beside it.
    cache.set(newer, "page", "n", 240);
    const b = await cache.read("1", "b", () => Promise.resolve({ name: "b" }), () => 10);
    cache.set(b, "page", "b", 240);
    const c = await cache.read("1", "c", () => Promise.resolve({ name: "c" }), () => 10);
    cache.set(c, "page", "c", 240);
    const d = await cache.read("1", "d", () => Promise.resolve({ name: "d" }), () => 10);
    cache.set(d, "page", "d", 240);
    expect([newer, b, c, d].map((x) => cache.get(x, "page"))).toEqual(["n", "b", "c", "d"]);
    await cache.read("1", "e", () => Promise.resolve({ name: "e" }), () => 10); // 1,010 characters: the oldest goes
    expect([newer, b, c, d].map((x) => cache.get(x, "page"))).toEqual([undefined, "b", "c", "d"]);
    // Nothing above a quarter of the bound is kept beside an answer.
    cache.set(c, "page", "too big", 300);
    expect(cache.get(c, "page")).toBeUndefined();
  });
});
