import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readConfig } from "../../server/config.ts";
import { resolvePlatformKey } from "../../server/platform-key.ts";

const none = { platformAdminKey: null, databaseUrl: null, mongoUrl: null };

describe("resolvePlatformKey()", () => {
  test("embedded and unset: generates a key into DATA_DIR/platform-admin.key (mode 600) and reads it back on the next start", () => {
    const dataDir = mkdtempSync(join(tmpdir(), "wks-platform-"));
    const first = resolvePlatformKey({ ...none, dataDir });
    expect(first.file).toBe(join(dataDir, "platform-admin.key"));
    expect(first.key!.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(first.file!, "utf8").trim()).toBe(first.key!);
    expect(statSync(first.file!).mode & 0o777).toBe(0o600);
    expect(resolvePlatformKey({ ...none, dataDir })).toEqual(first);
  });

  test("with DATABASE_URL or MONGO_URL and unset: the operator surface is off, nothing written", () => {
    const dataDir = mkdtempSync(join(tmpdir(), "wks-platform-"));
    expect(resolvePlatformKey({ ...none, dataDir, databaseUrl: "postgres://x/y" })).toEqual({ key: null, file: null });
    expect(resolvePlatformKey({ ...none, dataDir, mongoUrl: "mongodb://x/y" })).toEqual({ key: null, file: null });
  });

  test("PLATFORM_ADMIN_KEY wins and must be at least 32 characters", () => {
    const dataDir = mkdtempSync(join(tmpdir(), "wks-platform-"));
    expect(resolvePlatformKey({ ...none, dataDir, platformAdminKey: "p".repeat(32) })).toEqual({ key: "p".repeat(32), file: null });
    expect(() => resolvePlatformKey({ ...none, dataDir, platformAdminKey: "short" })).toThrow(/at least 32/);
  });
});

describe("readConfig() RADAR_PRICES", () => {
  test("overrides the named prices and refuses an invalid table at start-up", () => {
    expect(readConfig({ RADAR_PRICES: '{"phone":10}' }).radarPrices.phone).toBe(10);
    expect(() => readConfig({ RADAR_PRICES: '{"phone":"ten"}' })).toThrow(/RADAR_PRICES/);
  });
});
