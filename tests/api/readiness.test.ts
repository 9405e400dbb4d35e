import { beforeAll, describe, expect, test } from "bun:test";
import { makeTestApp, type TestApp } from "../support/test-app.ts";

/** `GET /health/ready` in-process (the database down is tests/api/postgres-crash.test.ts, on a real PostgreSQL). */
let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});

describe("GET /health/ready", () => {
  test("is public and answers 200 ready with the primary store's check", async () => {
    const r = await t.call("GET", "/health/ready");
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ status: "ready", checks: { database: { status: "up", required: true, latency_ms: expect.any(Number) } } });
    expect(r.headers.get("retry-after")).toBeNull();
  });

  test("is documented as public, 200 and 503 with the same body, beside the liveness check", async () => {
    const spec = (await t.call("GET", "/openapi.json")).body;
    const op = spec.paths["/api/v1/health/ready"].get;
    expect(op.security).toEqual([]);
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(["200", "503"]));
    expect(op.description).toContain("load balancer");
    expect(spec.paths["/api/v1/health"].get.description).toContain("/health/ready");
  });
});
