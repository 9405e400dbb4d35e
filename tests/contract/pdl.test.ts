import * as bunTest from "bun:test";
import { afterAll, describe, expect, test } from "bun:test";
import { createPdlDirectory, waitForReset } from "../../adapters/pdl/mod.ts";
import { ProspectDirectoryError } from "../../core/radar/mod.ts";
import { startPdlServer } from "../support/pdl-server.ts";
import { runProspectDirectoryContract } from "./prospect-directory.contract.ts";

/** The PDL adapter over real HTTP, against the tests' PDL protocol server (tests/support/pdl-server.ts). */
const KEY = "test-pdl-key-0123456789";
const server = startPdlServer({ apiKey: KEY });
afterAll(() => server.stop());

runProspectDirectoryContract("pdl", async () => createPdlDirectory({ apiKey: KEY, baseUrl: server.url }), bunTest);

async function reason(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return "resolved";
  } catch (e) {
    return e instanceof ProspectDirectoryError ? `${e.reason}: ${e.message}` : String(e);
  }
}

describe("the PDL adapter on the wire", () => {
  test("sends the key in X-Api-Key, and a filter as an Elasticsearch bool with size and scroll_token", async () => {
    const dir = createPdlDirectory({ apiKey: KEY, baseUrl: server.url });
    const from = server.requests.length;
    const first = await dir.search({ kind: "person", filter: { seniorities: ["VP"], countries: ["gb"], job_titles: ["VP Sales"] } }, {
      size: 2,
    });
    await dir.search({ kind: "person", filter: { seniorities: ["VP"], countries: ["gb"], job_titles: ["VP Sales"] } }, {
      size: 2,
      cursor: first.cursor,
    });
    const [a, b] = server.requests.slice(from);
    expect(a).toMatchObject({ method: "POST", path: "/v5/person/search", status: 200 });
    expect(a!.body).toEqual({
      size: 2,
      query: {
        bool: {
          must: [
            { bool: { should: [{ match: { job_title: { query: "vp sales", operator: "and" } } }], minimum_should_match: 1 } },
            { terms: { job_title_levels: ["vp"] } },
            { terms: { location_country: ["united kingdom"] } },
          ],
        },
      },
    });
    expect(b!.body).toMatchObject({ size: 2, scroll_token: expect.any(String) });
    expect(b!.status).toBe(200);
  });

  test("a wrong key is refused as unauthorized, with PDL's error type and message but not the key", async () => {
    const dir = createPdlDirectory({ apiKey: "wrong-key-abcdef", baseUrl: server.url });
    const why = await reason(dir.count({ kind: "company", filter: { countries: ["US"] } }));
    expect(why).toBe("unauthorized: People Data Labs answered 401 (authentication_error): Invalid or missing API key");
    expect(why).not.toContain("wrong-key");
  });

  test("bulk person enrichment is one POST /v5/person/bulk of {params: {pdl_id}}; a company one GET each", async () => {
    const dir = createPdlDirectory({ apiKey: KEY, baseUrl: server.url });
    const from = server.requests.length;
    await dir.enrich("person", ["pe_00001", "pe_00002"]);
    await dir.enrich("company", ["co_0001", "nope"]);
    expect(server.requests.slice(from).map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      "POST /v5/person/bulk 200",
      "GET /v5/company/enrich 200",
      "GET /v5/company/enrich 404",
    ]);
    expect(server.requests[from]!.body).toEqual({ requests: [{ params: { pdl_id: "pe_00001" } }, { params: { pdl_id: "pe_00002" } }] });
  });

  test("contacts come from person enrichment: work e-mail, mobile phone, LinkedIn with its scheme", async () => {
    const dir = createPdlDirectory({ apiKey: KEY, baseUrl: server.url });
    expect(await dir.contacts("pe_00001")).toEqual({
      email: "maya.smith.1@brightloop-co.example",
      phone: "+15553080594",
      linkedin_url: "https://www.linkedin.com/in/maya-smith-00001",
    });
  });

  test("a company keyword cannot filter people on PDL, and a country outside its table is refused, before any request", async () => {
    const dir = createPdlDirectory({ apiKey: KEY, baseUrl: server.url });
    const from = server.requests.length;
    expect(await reason(dir.count({ kind: "person", filter: { company: { keywords: ["saas"] } } }))).toMatch(/^unsupported_filter/);
    expect(await reason(dir.count({ kind: "company", filter: { countries: ["ZZ"] } }))).toMatch(/^unsupported_filter/);
    expect(server.requests.length).toBe(from);
  });
});

describe("PDL failing", () => {
  const down = startPdlServer({ apiKey: KEY, failStatus: 503 });
  afterAll(() => down.stop());

  test("a 5xx is unavailable at once (retries are the run's), and a closed port too", async () => {
    const dir = createPdlDirectory({ apiKey: KEY, baseUrl: down.url });
    expect(await reason(dir.enrich("person", ["pe_00001"]))).toBe(
      "unavailable: People Data Labs answered 503 (server_error): The server is unavailable",
    );
    expect(down.requests).toHaveLength(1);
    const closed = startPdlServer({ apiKey: KEY });
    const url = closed.url;
    await closed.stop();
    expect(await reason(createPdlDirectory({ apiKey: KEY, baseUrl: url }).contacts("pe_00001"))).toMatch(
      /^unavailable: People Data Labs is unreachable/,
    );
  });
});

describe("429: waiting for x-ratelimit-reset", () => {
  const limited = startPdlServer({ apiKey: KEY, rateLimitOnce: true });
  const always = startPdlServer({ apiKey: KEY, rateLimitAlways: true });
  afterAll(async () => {
    await limited.stop();
    await always.stop();
  });

  test("a 429 is waited out until the reset it names, then the request is sent again", async () => {
    const waits: number[] = [];
    const dir = createPdlDirectory({ apiKey: KEY, baseUrl: limited.url, sleep: async (ms) => void waits.push(ms) });
    expect(await dir.count({ kind: "company", filter: { industries: ["fintech"] } })).toBe(100);
    expect(limited.requests.map((r) => r.status)).toEqual([429, 200]);
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThan(0);
    expect(waits[0]).toBeLessThanOrEqual(2000);
  });

  test("429s beyond the retries give rate_limited", async () => {
    const waits: number[] = [];
    const dir = createPdlDirectory({ apiKey: KEY, baseUrl: always.url, sleep: async (ms) => void waits.push(ms), maxRetries: 2 });
    expect(await reason(dir.contacts("pe_00001"))).toMatch(/^rate_limited: People Data Labs answered 429 \(rate_limit_error\)/);
    expect(waits).toHaveLength(2);
    expect(always.requests).toHaveLength(3);
  });

  test("x-ratelimit-reset as epoch seconds, as a UTC timestamp, or absent", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(waitForReset(new Headers({ "x-ratelimit-reset": String(now / 1000 + 3) }), now)).toBe(3000);
    expect(waitForReset(new Headers({ "x-ratelimit-reset": "2026-01-01T00:00:05Z" }), now)).toBe(5000);
    expect(waitForReset(new Headers({ "retry-after": "2" }), now)).toBe(2000);
    expect(waitForReset(new Headers(), now)).toBe(1000);
  });
});
