/**
 * The response headers of the OWASP REST Security Cheat Sheet, as a client receives them: on a
 * public answer, an authenticated one, the two that carry a secret (workspace bootstrap, API-key
 * creation), every kind of error (the app's, Elysia's own 404 and parse errors, 413, 429), and the
 * event stream; the HTML share page keeps its own policy; HSTS only when served over https.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { withAuthCache } from "../../adapters/cache/cached-stores.ts";
import { createLocalInvalidationBus } from "../../adapters/cache/invalidation-bus.ts";
import { createMemoryStores } from "../../adapters/memory/mod.ts";
import { openEventStream } from "../support/event-stream.ts";
import { makeTestApp, type TestApp } from "../support/test-app.ts";

const fresh = () => withAuthCache(createMemoryStores(), createLocalInvalidationBus());
const JSON_CSP = "default-src 'none'; frame-ancestors 'none'";
const HSTS = "max-age=63072000; includeSubDomains";

/** What every JSON answer of the API carries, whatever its status. */
function expectApiHeaders(headers: Headers) {
  expect({
    "x-content-type-options": headers.get("x-content-type-options"),
    "content-security-policy": headers.get("content-security-policy"),
    "referrer-policy": headers.get("referrer-policy"),
    "cache-control": headers.get("cache-control"),
  }).toEqual({
    "x-content-type-options": "nosniff",
    "content-security-policy": JSON_CSP,
    "referrer-policy": "no-referrer",
    "cache-control": "no-store",
  });
}

let t: TestApp;
let owner: string;
beforeAll(async () => {
  t = await makeTestApp();
  owner = (await t.bootstrap("headers")).key;
});

describe("security headers", () => {
  test("a public answer: /health", async () => {
    const res = await t.call("GET", "/health");
    expect(res.status).toBe(200);
    expectApiHeaders(res.headers);
    expect(res.headers.get("strict-transport-security")).toBeNull();
  });

  test("an authenticated answer", async () => {
    const res = await t.call("GET", "/workspaces/headers", { key: owner });
    expect(res.status).toBe(200);
    expect(res.body.slug).toBe("headers");
    expectApiHeaders(res.headers);
  });

  test("the answers that carry a secret: the bootstrap's owner key and a new API key", async () => {
    const boot = await t.call("POST", "/workspaces", { body: { slug: "headers-boot", owner_email: "boot@example.com" } });
    expect(boot.status).toBe(201);
    expect(boot.body.api_key.key).toStartWith("wks_");
    expectApiHeaders(boot.headers);

    const key = await t.call("POST", "/workspaces/headers/api-keys", { key: owner, body: { name: "ci" } });
    expect(key.status).toBe(201);
    expect(key.body.key).toStartWith("wks_");
    expectApiHeaders(key.headers);
  });

  test("errors: the app's own, Elysia's 404 and parse errors, 401, 413 and 429", async () => {
    const answers = {
      unknownRoute: await t.call("GET", "/no/such/route"),
      unauthenticated: await t.call("GET", "/workspaces/headers"),
      invalid: await t.call("POST", "/workspaces", { body: { slug: "x" } }),
      unparsable: await t.call("POST", "/workspaces", { rawBody: "{not json", headers: { "content-type": "application/json" } }),
      tooLarge: await t.call("POST", "/workspaces", {
        rawBody: JSON.stringify({ pad: "x".repeat(70_000) }),
        headers: { "content-type": "application/json" },
      }),
      notFound: await t.call("GET", "/workspaces/nobody-here", { key: owner }),
    };
    expect(Object.fromEntries(Object.entries(answers).map(([k, r]) => [k, `${r.status} ${r.body.error.code}`]))).toEqual({
      unknownRoute: "404 NOT_FOUND",
      unauthenticated: "401 UNAUTHENTICATED",
      invalid: "400 VALIDATION_FAILED",
      unparsable: "400 VALIDATION_FAILED",
      tooLarge: "413 PAYLOAD_TOO_LARGE",
      notFound: "404 NOT_FOUND",
    });
    for (const r of Object.values(answers)) expectApiHeaders(r.headers);

    const limited = await makeTestApp(fresh(), { rateLimits: { perKey: { limit: 1, windowMs: 60_000 } } });
    const { key } = await limited.bootstrap("limited");
    expect((await limited.call("GET", "/workspaces/limited", { key })).status).toBe(200);
    const over = await limited.call("GET", "/workspaces/limited", { key });
    expect(over.status).toBe(429);
    expect(over.headers.get("retry-after")).not.toBeNull();
    expectApiHeaders(over.headers);
  });

  test("the event stream carries them and still streams", async () => {
    let headers: Headers | undefined;
    const stream = await openEventStream(async (init) => {
      const res = await t.app.handle(new Request("http://localhost/api/v1/workspaces/headers/events/stream", init));
      headers = res.headers;
      return res;
    }, owner);
    expect(stream.contentType).toBe("text/event-stream");
    expect(headers!.get("x-content-type-options")).toBe("nosniff");
    expect(headers!.get("cache-control")).toBe("no-store");
    await t.call("POST", "/workspaces/headers/areas", { key: owner, body: { name: "Streamed with headers" } });
    const event = await stream.next((e) => e.type === "area.created");
    expect(event.data.name).toBe("Streamed with headers");
    stream.close();
  });

  test("a share page keeps its own policy (no script, inline styles) and the common headers", async () => {
    const topic = await t.call("POST", "/workspaces/headers/topics", { key: owner, body: { title: "Shared with headers", body: "Hello" } });
    expect(topic.status).toBe(201);
    const share = await t.call("POST", `/workspaces/headers/topics/${topic.body.slug}/share`, { key: owner });
    expect(share.status).toBe(201);
    const page = await t.app.handle(new Request(`http://localhost/s/${share.body.token}`));
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toStartWith("text/html");
    const csp = page.headers.get("content-security-policy")!;
    expect(csp).not.toBe(JSON_CSP);
    expect(csp).toStartWith("default-src 'none'");
    expect(csp).toContain("style-src 'unsafe-inline'");
    expect(csp).not.toContain("script-src");
    expect(page.headers.get("x-content-type-options")).toBe("nosniff");
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect(await page.text()).toContain("Shared with headers");
  });

  test("Strict-Transport-Security when served over https: the URL's scheme, or X-Forwarded-Proto behind a trusted proxy only", async () => {
    const direct = await t.app.handle(new Request("https://localhost/api/v1/health"));
    expect(direct.headers.get("strict-transport-security")).toBe(HSTS);

    // The test app trusts its proxy (TRUST_PROXY=true): the first hop's scheme counts.
    const proxied = await t.call("GET", "/health", { headers: { "x-forwarded-proto": "https, http" } });
    expect(proxied.headers.get("strict-transport-security")).toBe(HSTS);
    const plain = await t.call("GET", "/health", { headers: { "x-forwarded-proto": "http" } });
    expect(plain.headers.get("strict-transport-security")).toBeNull();
    const error = await t.call("GET", "/no/such/route", { headers: { "x-forwarded-proto": "https" } });
    expect(error.status).toBe(404);
    expect(error.headers.get("strict-transport-security")).toBe(HSTS);

    // Without a trusted proxy, a client's own X-Forwarded-Proto is ignored.
    const untrusting = await makeTestApp(fresh(), { rateLimits: { trustProxy: false } });
    const spoofed = await untrusting.call("GET", "/health", { headers: { "x-forwarded-proto": "https" } });
    expect(spoofed.headers.get("strict-transport-security")).toBeNull();
  });
});
