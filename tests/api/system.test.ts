import { beforeAll, describe, expect, test } from "bun:test";
import { makeTestApp, type TestApp } from "../support/test-app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});

/** Request logs are written after the response is sent; wait for the one with this request id (bounded). */
async function logged(requestId: string): Promise<any> {
  for (let i = 0; i < 200; i++) {
    const line = t.logs.find((l) => l.includes(`"request_id":"${requestId}"`));
    if (line) return JSON.parse(line);
    await Bun.sleep(5);
  }
  throw new Error(`no log line for request ${requestId}`);
}

describe("system", () => {
  test("GET /health and GET /version are public", async () => {
    const h = await t.call("GET", "/health");
    expect(h.status).toBe(200);
    expect(h.body.status).toBe("ok");
    const v = await t.call("GET", "/version");
    expect(v.body).toEqual({
      api_version: "v1",
      version: "0.0.0-test",
      build: "test",
      commit: "test",
      started_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      deprecations: [{ path: "/watchers", successor: "/topics", deprecated_at: "2026-11-22T00:00:00Z", sunset_at: "2027-06-01T00:00:00Z" }],
    });
    expect((await t.call("GET", "/version")).body.started_at).toBe(v.body.started_at);
  });

  test("the OpenAPI document lists every route with its errors, and the docs page serves", async () => {
    const spec = await t.call("GET", "/openapi.json");
    expect(spec.status).toBe(200);
    expect(spec.body.openapi).toMatch(/^3\.1/);
    const paths = Object.keys(spec.body.paths);
    for (
      const p of [
        "/api/v1/health",
        "/api/v1/version",
        "/api/v1/workspaces",
        "/api/v1/me",
        "/api/v1/workspaces/{slug}",
        "/api/v1/workspaces/{slug}/plan",
        "/api/v1/workspaces/{slug}/health",
        "/api/v1/workspaces/{slug}/api-keys",
        "/api/v1/workspaces/{slug}/api-keys/{id}",
        "/api/v1/workspaces/{slug}/members",
        "/api/v1/workspaces/{slug}/members/{memberId}",
        "/api/v1/workspaces/{slug}/areas",
        "/api/v1/workspaces/{slug}/areas/{id}",
        "/api/v1/workspaces/{slug}/repos",
        "/api/v1/workspaces/{slug}/repos/{id}",
      ]
    ) {
      expect(paths).toContain(p);
    }
    const create = spec.body.paths["/api/v1/workspaces"].post;
    expect(Object.keys(create.requestBody.content)).toEqual(["application/json"]);
    expect(create.requestBody.content["application/json"].schema.additionalProperties).toBe(false);
    expect(Object.keys(create.responses)).toEqual(expect.arrayContaining(["201", "400", "409"]));
    expect(spec.body.components.securitySchemes.apiKey).toEqual({ type: "apiKey", in: "header", name: "x-api-key" });
    const docs = await t.call("GET", "/docs");
    expect(docs.status).toBe(200);
    expect(docs.headers.get("content-type")).toContain("text/html");
  });

  test("unknown routes are 404 with the envelope", async () => {
    const res = await t.call("GET", "/nowhere");
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("NOT_FOUND");
  });

  test("every request is logged as one JSON line without secrets", async () => {
    const res = await t.call("GET", "/health", { headers: { "x-request-id": "trace-abcdef12" } });
    expect(res.headers.get("x-request-id")).toBe("trace-abcdef12");
    const line = await logged("trace-abcdef12");
    expect(line).toMatchObject({
      level: "info",
      msg: "request",
      request_id: "trace-abcdef12",
      method: "GET",
      route: "/api/v1/health",
      status: 200,
    });
    expect(typeof line.duration_ms).toBe("number");
    const denied = await t.call("GET", "/workspaces/nope", { key: "wks_" + "b".repeat(40) });
    const failed = await logged(denied.headers.get("x-request-id")!);
    expect(failed.status).toBe(401);
    expect(t.logs.join("")).not.toContain("b".repeat(40));
  });

  test("CORS answers preflights for configured origins only", async () => {
    const ok = await t.call("OPTIONS", "/health", {
      headers: { origin: "https://app.example.com", "access-control-request-method": "GET" },
    });
    expect(ok.headers.get("access-control-allow-origin")).toBe("https://app.example.com");
    const other = await t.call("OPTIONS", "/health", {
      headers: { origin: "https://evil.example.com", "access-control-request-method": "GET" },
    });
    expect(other.headers.get("access-control-allow-origin")).not.toBe("https://evil.example.com");
  });
});

describe("request URLs", () => {
  test("a NUL character (%00) anywhere in the URL is a 400 in the error envelope, before any store sees it", async () => {
    const { key } = await t.bootstrap("url-nul");
    for (const path of ["/workspaces/url-nul/topics/graph?center=a%00b", "/workspaces/url-nul/collections/search?q=%00"]) {
      const res = await t.call("GET", path, { key });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: "VALIDATION_FAILED", message: "Invalid request: the URL holds a NUL character (%00)" });
    }
  });

  test("a URL longer than 8,192 characters is a 400 in the error envelope", async () => {
    const { key } = await t.bootstrap("url-long");
    const res = await t.call("GET", `/workspaces/url-long/topics?tags=${"a".repeat(9000)}`, { key });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("VALIDATION_FAILED");
    expect(res.body.error.message).toBe("Invalid request: the URL is longer than 8192 characters");
    // Just under the bound, the route's own rules apply (here: the tags parameter's length).
    const under = await t.call("GET", `/workspaces/url-long/topics?tags=${"a".repeat(7000)}`, { key });
    expect(under.body.error.details).toEqual([expect.objectContaining({ path: "query/tags" })]);
  });
});
