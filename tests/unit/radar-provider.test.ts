import { describe, expect, test } from "bun:test";
import { readConfig } from "../../server/config.ts";
import { createProspects } from "../../server/prospects.ts";

describe("readConfig() RADAR_PROVIDER", () => {
  test("defaults to the sample directory, and composes it", async () => {
    expect(readConfig({}).radarProvider).toEqual({ kind: "sample" });
    expect(readConfig({ RADAR_PROVIDER: "sample", PDL_API_KEY: "ignored" }).radarProvider).toEqual({ kind: "sample" });
    const dir = createProspects(readConfig({}).radarProvider);
    expect(dir.name).toBe("sample");
    expect(await dir.count({ kind: "company", filter: { countries: ["US"] } })).toBe(100);
  });

  test("pdl takes PDL_API_KEY and PDL_BASE_URL (default PDL's API), and composes the PDL adapter", () => {
    expect(readConfig({ RADAR_PROVIDER: "pdl", PDL_API_KEY: "k-123" }).radarProvider).toEqual({
      kind: "pdl",
      apiKey: "k-123",
      baseUrl: "https://api.peopledatalabs.com",
    });
    const c = readConfig({ RADAR_PROVIDER: "pdl", PDL_API_KEY: "k-123", PDL_BASE_URL: "http://127.0.0.1:9999" });
    expect(c.radarProvider).toMatchObject({ baseUrl: "http://127.0.0.1:9999" });
    expect(createProspects(c.radarProvider).name).toBe("pdl");
  });

  test("pdl without a key, an unknown provider and a PDL_BASE_URL that is not http(s) stop the start with a clear message", () => {
    expect(() => readConfig({ RADAR_PROVIDER: "pdl" })).toThrow("RADAR_PROVIDER=pdl needs PDL_API_KEY");
    expect(() => readConfig({ RADAR_PROVIDER: "pdl", PDL_API_KEY: "  " })).toThrow("RADAR_PROVIDER=pdl needs PDL_API_KEY");
    expect(() => readConfig({ RADAR_PROVIDER: "apollo" })).toThrow('Invalid RADAR_PROVIDER: expected sample or pdl, got "apollo"');
    expect(() => readConfig({ RADAR_PROVIDER: "pdl", PDL_API_KEY: "k", PDL_BASE_URL: "ftp://x" })).toThrow(/Invalid PDL_BASE_URL/);
    expect(() => readConfig({ RADAR_PROVIDER: "pdl", PDL_API_KEY: "k", PDL_BASE_URL: "nope" })).toThrow(/Invalid PDL_BASE_URL/);
  });
});
