import { beforeAll, describe, expect, test } from "bun:test";
import { type Personas, personas } from "../support/personas.ts";
import { makeTestApp, type TestApp } from "../support/test-app.ts";

let t: TestApp;
let p: Personas;
beforeAll(async () => {
  t = await makeTestApp();
  p = await personas(t, "org");
});

describe("areas", () => {
  test("create, list, update, delete", async () => {
    const created = await t.call("POST", "/workspaces/org/areas", { key: p.admin, body: { name: "Payments", description: "Money in" } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: "Payments", description: "Money in" });
    const list = await t.call("GET", "/workspaces/org/areas", { key: p.member });
    expect(list.body.areas.map((a: any) => a.name)).toEqual(["Payments"]);
    const upd = await t.call("PATCH", `/workspaces/org/areas/${created.body.id}`, { key: p.owner, body: { description: null } });
    expect(upd.status).toBe(200);
    expect(upd.body).toMatchObject({ name: "Payments", description: null });
    expect((await t.call("DELETE", `/workspaces/org/areas/${created.body.id}`, { key: p.owner })).status).toBe(200);
    expect((await t.call("DELETE", `/workspaces/org/areas/${created.body.id}`, { key: p.owner })).status).toBe(404);
  });

  test("a duplicate name is 409; bad bodies are 400", async () => {
    expect((await t.call("POST", "/workspaces/org/areas", { key: p.owner, body: { name: "Search" } })).status).toBe(201);
    expect((await t.call("POST", "/workspaces/org/areas", { key: p.owner, body: { name: "Search" } })).status).toBe(409);
    expect((await t.call("POST", "/workspaces/org/areas", { key: p.owner, body: { name: "" } })).status).toBe(400);
    expect((await t.call("POST", "/workspaces/org/areas", { key: p.owner, body: { name: "n".repeat(121) } })).status).toBe(400);
    expect((await t.call("POST", "/workspaces/org/areas", { key: p.owner, body: { name: "X", description: 5 } })).status).toBe(400);
  });
});

describe("repos", () => {
  test("link, list, read, remove", async () => {
    const body = { provider: "github", full_name: "acme/api", clone_url: "https://example.com/acme/api.git" };
    const created = await t.call("POST", "/workspaces/org/repos", { key: p.owner, body });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ ...body, default_branch: "main" });
    expect((await t.call("GET", `/workspaces/org/repos/${created.body.id}`, { key: p.service })).body).toEqual(created.body);
    expect((await t.call("GET", "/workspaces/org/repos", { key: p.member })).body.total).toBe(1);
    expect((await t.call("POST", "/workspaces/org/repos", { key: p.owner, body })).status).toBe(409);
    expect((await t.call("DELETE", `/workspaces/org/repos/${created.body.id}`, { key: p.owner })).status).toBe(200);
    expect((await t.call("GET", `/workspaces/org/repos/${created.body.id}`, { key: p.owner })).status).toBe(404);
  });

  test("bad repo bodies are 400", async () => {
    for (
      const body of [
        {},
        { provider: "svn", full_name: "acme/api" },
        { provider: "github", full_name: "no-slash" },
        { provider: "github", full_name: "acme/api", default_branch: "" },
        { provider: "github", full_name: "acme/api", stars: 5 },
      ]
    ) {
      expect((await t.call("POST", "/workspaces/org/repos", { key: p.owner, body })).status).toBe(400);
    }
  });
});

describe("workspace", () => {
  test("read, update and health counts", async () => {
    const upd = await t.call("PATCH", "/workspaces/org", {
      key: p.owner,
      body: { name: "The Org", settings: { review_interval_days: 30 } },
    });
    expect(upd.status).toBe(200);
    expect(upd.body).toMatchObject({ name: "The Org", settings: { review_interval_days: 30 } });
    expect((await t.call("GET", "/workspaces/org", { key: p.member })).body.name).toBe("The Org");
    const health = await t.call("GET", "/workspaces/org/health", { key: p.member });
    expect(health.status).toBe(200);
    expect(health.body.counts).toMatchObject({ members: 3, areas: 1, repos: 0 });
    expect(health.body.store.ok).toBe(true);
    expect((await t.call("PATCH", "/workspaces/org", { key: p.owner, body: { settings: { review_interval_days: 0 } } })).status).toBe(400);
    expect((await t.call("PATCH", "/workspaces/org", { key: p.owner, body: { slug: "renamed" } })).status).toBe(400);
  });

  test("an owner deletes the workspace; its keys stop working and the slug is free again", async () => {
    const ws = await personas(t, "doomed");
    const del = await t.call("DELETE", "/workspaces/doomed", { key: ws.owner });
    expect(del.status).toBe(200);
    expect((await t.call("GET", "/workspaces/doomed", { key: ws.owner })).status).toBe(401);
    expect((await t.call("GET", "/workspaces/doomed", { key: ws.member })).status).toBe(401);
    expect((await t.call("POST", "/workspaces", { body: { slug: "doomed", owner_email: "fresh-doomed@example.com" } })).status).toBe(201);
  });
});
