import type { TestApi } from "./kit/test-api.ts";
import { sleep } from "./wait.ts";
import type { RateCounter } from "../../core/access/ports.ts";
import { uuidv7 } from "../../core/kernel/ids.ts";

/** The contract of `RateCounter`: fixed windows, counted atomically. Every test uses its own keys. */
export function runRateCounterContract(name: string, open: () => Promise<RateCounter>, api: TestApi) {
  const { afterAll, beforeAll, describe, expect, test } = api;
  describe(`${name}: RateCounter`, () => {
    let c: RateCounter;
    beforeAll(async () => {
      c = await open();
    });
    afterAll(async () => {
      await c?.close();
    });

    test("RateCounter.hit() counts hits of a key within its window", async () => {
      const key = `k:${uuidv7()}`;
      const first = await c.hit(key, 60_000);
      const second = await c.hit(key, 60_000);
      const third = await c.hit(key, 60_000);
      expect([first.count, second.count, third.count]).toEqual([1, 2, 3]);
      for (const w of [first, second, third]) {
        expect(w.resetMs).toBeGreaterThan(55_000);
        expect(w.resetMs).toBeLessThanOrEqual(60_000);
      }
      // the window started at the first hit: later hits do not push its end back
      expect(third.resetMs).toBeLessThanOrEqual(first.resetMs);
    });

    test("RateCounter.hit() counts each key on its own", async () => {
      const a = `k:${uuidv7()}`;
      const b = `k:${uuidv7()}`;
      await c.hit(a, 60_000);
      await c.hit(a, 60_000);
      expect((await c.hit(b, 60_000)).count).toBe(1);
      expect((await c.hit(a, 60_000)).count).toBe(3);
    });

    test("RateCounter.hit() starts a new window once the last one ended", async () => {
      const key = `k:${uuidv7()}`;
      await c.hit(key, 150);
      expect((await c.hit(key, 150)).count).toBe(2);
      await sleep(200);
      const fresh = await c.hit(key, 150);
      expect(fresh.count).toBe(1);
      expect(fresh.resetMs).toBeGreaterThan(0);
      expect(fresh.resetMs).toBeLessThanOrEqual(150);
    });

    test("RateCounter.hit() counts 50 concurrent hits exactly: 1..50, each once", async () => {
      const key = `k:${uuidv7()}`;
      const results = await Promise.all(Array.from({ length: 50 }, () => c.hit(key, 60_000)));
      expect(results.map((r) => r.count).sort((x, y) => x - y)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    });
  });
}
