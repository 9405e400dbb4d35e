import { beforeAll, describe, expect, test } from "bun:test";
import { type Personas, personas } from "../support/personas.ts";
import { makeTestApp, type TestApp } from "../support/test-app.ts";

let t: TestApp;
let a: Personas;
let b: Personas;
beforeAll(async () => {
  t = await makeTestApp();
  a = await personas(t, "tenant-a");
  b = await personas(t, "tenant-b");
});

describe("authentication", () => {
  test("a missing key is 401 with the envelope and a request id", async () => {
    const res = await t.call("GET", "/workspaces/tenant-a");
    expect(res.status).toBe(401);
    expect(res.body.error).toMatchObject({ code: "UNAUTHENTICATED", details: [] });
    expect(res.headers.get("x-request-id")).toBe(res.body.error.request_id);
  });

  test("a malformed or unknown key is 401", async () => {
    const forged = a.owner.slice(0, -1) + (a.owner.endsWith("2") ? "3" : "2");
    for (const key of ["nope", "wks_" + "a".repeat(40), forged]) {
      expect((await t.call("GET", "/workspaces/tenant-a", { key })).status).toBe(401);
    }
  });

  test("an anonymous caller gets 401 before any body validation", async () => {
    const res = await t.call("POST", "/workspaces/tenant-a/areas", { body: { bogus: 1 } });
    expect(res.status).toBe(401);
  });

  test("a revoked key is refused on the very next request", async () => {
    const created = await t.call("POST", "/workspaces/tenant-a/api-keys", { key: a.owner, body: { name: "short-lived" } });
    expect(created.status).toBe(201);
    expect((await t.call("GET", "/workspaces/tenant-a", { key: created.body.key })).status).toBe(200);
    const del = await t.call("DELETE", `/workspaces/tenant-a/api-keys/${created.body.id}`, { key: a.owner });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ id: created.body.id, deleted: true });
    expect((await t.call("GET", "/workspaces/tenant-a", { key: created.body.key })).status).toBe(401);
  });

  test("last_used_at is recorded", async () => {
    const list = await t.call("GET", "/workspaces/tenant-a/api-keys", { key: a.owner });
    const own = list.body.api_keys.find((k: any) => k.name === "owner key");
    expect(typeof own.last_used_at).toBe("string");
  });
});

describe("tenancy", () => {
  const paths = ["", "/health", "/members", "/api-keys", "/areas", "/repos"];
  for (const p of paths) {
    test(`GET /workspaces/{other}${p} is 404 for a principal of another workspace`, async () => {
      const res = await t.call("GET", `/workspaces/tenant-b${p}`, { key: a.owner });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe("NOT_FOUND");
      const missing = await t.call("GET", `/workspaces/no-such-ws${p}`, { key: a.owner });
      expect(missing.status).toBe(404);
      expect(missing.body.error.message).toBe(res.body.error.message);
    });
  }

  test("writes into another workspace are 404 and change nothing", async () => {
    const res = await t.call("POST", "/workspaces/tenant-b/areas", { key: a.owner, body: { name: "intrusion" } });
    expect(res.status).toBe(404);
    const del = await t.call("DELETE", `/workspaces/tenant-b/members/${b.memberMemberId}`, { key: a.owner });
    expect(del.status).toBe(404);
    const areas = await t.call("GET", "/workspaces/tenant-b/areas", { key: b.owner });
    expect(areas.body.total).toBe(0);
    expect((await t.call("GET", "/workspaces/tenant-b/members", { key: b.owner })).body.total).toBe(3);
  });

  test("ids of another workspace's objects read as absent", async () => {
    const keys = await t.call("GET", "/workspaces/tenant-b/api-keys", { key: b.owner });
    const foreignKey = keys.body.api_keys[0].id;
    expect((await t.call("DELETE", `/workspaces/tenant-a/api-keys/${foreignKey}`, { key: a.owner })).status).toBe(404);
    expect((await t.call("PATCH", `/workspaces/tenant-a/members/${b.memberMemberId}`, { key: a.owner, body: { role: "admin" } })).status)
      .toBe(404);
  });
});

describe("roles", () => {
  const ownerOps: Array<[string, string, unknown]> = [
    ["PATCH", "", { name: "x" }],
    ["PATCH", "/plan", { plan: "team" }],
    ["POST", "/members", { email: "someone@example.com" }],
    ["POST", "/areas", { name: "Area" }],
    ["POST", "/repos", { provider: "github", full_name: "acme/x" }],
    ["POST", "/api-keys", { service: true }],
  ];
  for (const [method, path, body] of ownerOps) {
    test(`${method} /workspaces/{slug}${path} is 403 for a member and for a service key`, async () => {
      for (const key of [a.member, a.service]) {
        const res = await t.call(method, `/workspaces/tenant-a${path}`, { key, body });
        expect(res.status).toBe(403);
        expect(res.body.error.code).toBe("FORBIDDEN");
      }
    });
  }

  test("reads need only membership; a service key can read", async () => {
    for (const key of [a.member, a.service, a.admin]) {
      expect((await t.call("GET", "/workspaces/tenant-a/members", { key })).status).toBe(200);
    }
  });

  test("an admin may set the plan; only an owner may delete the workspace", async () => {
    const plan = await t.call("PATCH", "/workspaces/tenant-a/plan", { key: a.admin, body: { plan: "business" } });
    expect(plan.status).toBe(200);
    expect(plan.body.plan).toBe("business");
    expect((await t.call("PATCH", "/workspaces/tenant-a/plan", { key: a.admin, body: { plan: "gold" } })).status).toBe(400);
    // The current plan again: 200, no change; enterprise is a contract, neither set nor left here.
    const same = await t.call("PATCH", "/workspaces/tenant-a/plan", { key: a.admin, body: { plan: "business" } });
    expect(same.status).toBe(200);
    expect(same.body.updated_at).toBe(plan.body.updated_at);
    const enterprise = await t.call("PATCH", "/workspaces/tenant-a/plan", { key: a.owner, body: { plan: "enterprise" } });
    expect(enterprise.status).toBe(409);
    expect(enterprise.body.error).toMatchObject({ code: "PLAN_CHANGE_NOT_ALLOWED", current_plan: "business" });
    expect((await t.call("DELETE", "/workspaces/tenant-a", { key: a.admin })).status).toBe(403);
  });
});

describe("API keys", () => {
  test("by default a key acts as its creator", async () => {
    const k = await t.call("POST", "/workspaces/tenant-a/api-keys", { key: a.member, body: { name: "laptop" } });
    expect(k.status).toBe(201);
    expect(k.body.kind).toBe("personal");
    const me = await t.call("GET", "/me", { key: k.body.key });
    expect(me.body.role).toBe("member");
    expect(me.body.identity.email).toBe("member-tenant-a@example.com");
  });

  test("a member cannot mint a key for someone else or a service key", async () => {
    expect((await t.call("POST", "/workspaces/tenant-a/api-keys", { key: a.member, body: { member_id: a.adminMemberId } })).status).toBe(
      403,
    );
    expect((await t.call("POST", "/workspaces/tenant-a/api-keys", { key: a.member, body: { service: true } })).status).toBe(403);
  });

  test("a service key is faceless, cannot mint or list keys", async () => {
    const me = await t.call("GET", "/me", { key: a.service });
    expect(me.body).toMatchObject({ principal: { kind: "service", via: "api_key" }, identity: null, role: null, memberships: [] });
    expect((await t.call("POST", "/workspaces/tenant-a/api-keys", { key: a.service, body: {} })).status).toBe(403);
    expect((await t.call("GET", "/workspaces/tenant-a/api-keys", { key: a.service })).status).toBe(403);
  });

  test("member_id and service together are 400; an unknown member is 404", async () => {
    expect(
      (await t.call("POST", "/workspaces/tenant-a/api-keys", { key: a.owner, body: { member_id: a.memberMemberId, service: true } }))
        .status,
    ).toBe(400);
    const unknown = "01900000-0000-7000-8000-000000000000";
    expect((await t.call("POST", "/workspaces/tenant-a/api-keys", { key: a.owner, body: { member_id: unknown } })).status).toBe(404);
  });

  test("owners list every key; members list their own; members cannot revoke others' keys", async () => {
    const all = await t.call("GET", "/workspaces/tenant-a/api-keys", { key: a.owner });
    const mine = await t.call("GET", "/workspaces/tenant-a/api-keys", { key: a.member });
    expect(all.body.total).toBeGreaterThan(mine.body.total);
    expect(mine.body.api_keys.every((k: any) => k.kind === "personal")).toBe(true);
    const someoneElses = all.body.api_keys.find((k: any) => k.kind === "service");
    expect((await t.call("DELETE", `/workspaces/tenant-a/api-keys/${someoneElses.id}`, { key: a.member })).status).toBe(404);
    expect((await t.call("GET", "/workspaces/tenant-a", { key: a.service })).status).toBe(200);
  });

  test("list paging: limit over its maximum is 400, not clamped", async () => {
    expect((await t.call("GET", "/workspaces/tenant-a/api-keys?limit=201", { key: a.owner })).status).toBe(400);
    expect((await t.call("GET", "/workspaces/tenant-a/api-keys?limit=0", { key: a.owner })).status).toBe(400);
    expect((await t.call("GET", "/workspaces/tenant-a/api-keys?limit=abc", { key: a.owner })).status).toBe(400);
    expect((await t.call("GET", "/workspaces/tenant-a/api-keys?colour=red", { key: a.owner })).status).toBe(400);
    const one = await t.call("GET", "/workspaces/tenant-a/api-keys?limit=1", { key: a.owner });
    expect(one.body.api_keys).toHaveLength(1);
    expect(one.body.has_more).toBe(true);
  });
});
