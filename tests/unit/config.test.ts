import { describe, expect, test } from "bun:test";
import { readConfig } from "../../server/config.ts";

describe("readConfig()", () => {
  test("readConfig() refuses DATABASE_URL and MONGO_URL together", () => {
    expect(() => readConfig({ DATABASE_URL: "postgres://x", MONGO_URL: "mongodb://y" })).toThrow(/Both DATABASE_URL and MONGO_URL/);
  });

  test("readConfig() reads the backends and limits, with defaults", () => {
    const c = readConfig({ MONGO_URL: "mongodb://y", REDIS_URL: "redis://z", RATE_LIMIT_PER_KEY: "0" });
    expect(c).toMatchObject({ mongoUrl: "mongodb://y", redisUrl: "redis://z", databaseUrl: null, rateLimitPerKey: 0, rateLimitPerIp: 30, port: 3000 });
  });

  test("readConfig() rejects malformed numbers instead of guessing", () => {
    expect(() => readConfig({ PORT: "http" })).toThrow(/Invalid PORT/);
    expect(() => readConfig({ RATE_LIMIT_WINDOW_MS: "5" })).toThrow(/Invalid RATE_LIMIT_WINDOW_MS/);
  });
});
