import { describe, expect, test } from "bun:test";
import type { RateCounter } from "../../core/access/ports.ts";
import { makeTestApp } from "../support/test-app.ts";
import { withAuthCache } from "../../adapters/cache/cached-stores.ts";
import { createLocalInvalidationBus } from "../../adapters/cache/invalidation-bus.ts";
import { createMemoryStores } from "../../adapters/memory/mod.ts";

const fresh = () => withAuthCache(createMemoryStores(), createLocalInvalidationBus());

describe("rate limiting", () => {
  test("a key over its limit gets 429 with Retry-After and RateLimit headers", async () => {
    const t = await makeTestApp(fresh(), { rateLimits: { perKey: { limit: 3, windowMs: 60_000 } } });
    const { key } = await t.bootstrap("limited");
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 4; i++) {
      last = await t.call("GET", "/workspaces/limited", { key });
      statuses.push(last.status);
      if (i === 0) {
        expect(last.headers.get("ratelimit-limit")).toBe("3");
        expect(last.headers.get("ratelimit-remaining")).toBe("2");
      }
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(last!.body.error.code).toBe("RATE_LIMITED");
    expect(Number(last!.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(last!.headers.get("ratelimit-remaining")).toBe("0");
    // another key of the same workspace has its own budget
    const other = await makeTestApp(fresh(), { rateLimits: { perKey: { limit: 3, windowMs: 60_000 } } });
    expect((await other.bootstrap("limited")).key).not.toBe(key);
  });

  test("unauthenticated bootstrap is limited per client address", async () => {
    const t = await makeTestApp(fresh(), { rateLimits: { perIp: { limit: 2, windowMs: 60_000 } } });
    const from = (ip: string, slug: string) =>
      t.call("POST", "/workspaces", { body: { slug, owner_email: `${slug}@example.com` }, headers: { "x-forwarded-for": ip } });
    expect((await from("10.0.0.1", "ip-one")).status).toBe(201);
    expect((await from("10.0.0.1", "ip-two")).status).toBe(201);
    const third = await from("10.0.0.1", "ip-three");
    expect(third.status).toBe(429);
    expect((await from("10.0.0.2", "ip-three")).status).toBe(201);
  });

  test("when the counter is unavailable, requests are let through and a warning is logged", async () => {
    const broken: RateCounter = { hit: async () => Promise.reject(new Error("redis down")), close: async () => {} };
    const t = await makeTestApp(fresh(), { rateLimits: { counter: broken, perKey: { limit: 1, windowMs: 60_000 } } });
    const { key } = await t.bootstrap("open-fail");
    for (let i = 0; i < 3; i++) expect((await t.call("GET", "/workspaces/open-fail", { key })).status).toBe(200);
    expect(t.logs.some((l) => l.includes("rate limiter unavailable"))).toBe(true);
  });

  // The warning is logged at most every 10 s per process, and the test above has just logged it.
  test("a counter that fails at once (not through a promise) also lets requests through", async () => {
    const broken: RateCounter = {
      hit: () => {
        throw new Error("counter gone");
      },
      close: async () => {},
    };
    const t = await makeTestApp(fresh(), { rateLimits: { counter: broken, perKey: { limit: 1, windowMs: 60_000 } } });
    const { key } = await t.bootstrap("open-fail-sync");
    for (let i = 0; i < 3; i++) expect((await t.call("GET", "/workspaces/open-fail-sync", { key })).status).toBe(200);
  });

  test("a counter answering through a promise (a shared one, as Redis) limits the same: headers, then 429", async () => {
    const windows = new Map<string, number>();
    const shared: RateCounter = {
      hit: async (key, windowMs) => {
        windows.set(key, (windows.get(key) ?? 0) + 1);
        return { count: windows.get(key)!, resetMs: windowMs };
      },
      close: async () => {},
    };
    const t = await makeTestApp(fresh(), { rateLimits: { counter: shared, perKey: { limit: 1, windowMs: 60_000 } } });
    const { key } = await t.bootstrap("shared-counter");
    const first = await t.call("GET", "/workspaces/shared-counter", { key });
    expect(first.status).toBe(200);
    expect([first.headers.get("ratelimit-limit"), first.headers.get("ratelimit-remaining"), first.headers.get("ratelimit-reset")]).toEqual([
      "1",
      "0",
      "60",
    ]);
    const second = await t.call("GET", "/workspaces/shared-counter", { key });
    expect(second.status).toBe(429);
    expect(second.body.error.code).toBe("RATE_LIMITED");
    expect(second.headers.get("ratelimit-remaining")).toBe("0");
  });
});
