import { describe, expect, test } from "bun:test";
import { readConfig } from "../../server/config.ts";

describe("readConfig(): database bounds and shutdown", () => {
  test("readConfig() defaults DB_STATEMENT_TIMEOUT_MS to 30 s, DB_CONNECT_TIMEOUT_MS to 5 s and SHUTDOWN_TIMEOUT_MS to 10 s", () => {
    expect(readConfig({})).toMatchObject({ dbStatementTimeoutMs: 30_000, dbConnectTimeoutMs: 5_000, shutdownTimeoutMs: 10_000 });
  });

  test("readConfig() takes them as integers within their bounds and refuses anything else", () => {
    expect(readConfig({ DB_STATEMENT_TIMEOUT_MS: "3000", DB_CONNECT_TIMEOUT_MS: "2000", SHUTDOWN_TIMEOUT_MS: "5000" })).toMatchObject({
      dbStatementTimeoutMs: 3_000,
      dbConnectTimeoutMs: 2_000,
      shutdownTimeoutMs: 5_000,
    });
    expect(() => readConfig({ DB_STATEMENT_TIMEOUT_MS: "0" })).toThrow("Invalid DB_STATEMENT_TIMEOUT_MS");
    expect(() => readConfig({ DB_CONNECT_TIMEOUT_MS: "5s" })).toThrow("Invalid DB_CONNECT_TIMEOUT_MS");
    expect(() => readConfig({ SHUTDOWN_TIMEOUT_MS: "500" })).toThrow("Invalid SHUTDOWN_TIMEOUT_MS");
  });
});
