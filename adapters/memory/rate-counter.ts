import type { RateCounter, WindowCount } from "../../core/access/ports.ts";

/** Fixed windows in process memory; expired windows are swept so the map stays bounded by live keys. */
export function createMemoryRateCounter(now: () => number = Date.now): RateCounter {
  const windows = new Map<string, { count: number; ends: number }>();
  let nextSweep = 0;
  return {
    hit(key, windowMs): WindowCount {
      const t = now();
      if (t >= nextSweep) {
        for (const [k, w] of windows) if (w.ends <= t) windows.delete(k);
        nextSweep = t + 10_000;
      }
      let w = windows.get(key);
      if (!w || w.ends <= t) windows.set(key, w = { count: 0, ends: t + windowMs });
      w.count++;
      return { count: w.count, resetMs: w.ends - t };
    },
    async close() {
      windows.clear();
    },
  };
}
