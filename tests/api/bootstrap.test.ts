import { beforeAll, describe, expect, test } from "bun:test";
import { makeTestApp, type TestApp } from "../support/test-app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});

describe("POST /workspaces", () => {
  test("creates the workspace, its owner and a working first key (201)", async () => {
    const res = await t.call("POST", "/workspaces", {
      body: { slug: "acme-co", name: "Acme", owner_email: "Ana@Example.com", owner_name: "Ana" },
    });
    expect(res.status).toBe(201);
    expect(res.body.workspace).toMatchObject({ slug: "acme-co", name: "Acme", plan: "free" });
    expect(res.body.owner).toMatchObject({ email: "ana@example.com", name: "Ana" });
    expect(res.body.member.role).toBe("owner");
    const key: string = res.body.api_key.key;
    expect(key).toMatch(/^wks_[a-z2-7]{40}$/);
    expect(res.body.api_key.prefix).toBe(key.slice(0, 12));
    const read = await t.call("GET", "/workspaces/acme-co", { key });
    expect(read.status).toBe(200);
    expect(read.body.id).toBe(res.body.workspace.id);
  });

  test("the raw key never appears again, in responses or logs", async () => {
    const { key, slug } = await t.bootstrap("secretive");
    const list = await t.call("GET", `/workspaces/${slug}/api-keys`, { key });
    expect(JSON.stringify(list.body)).not.toContain(key);
    expect(JSON.stringify(list.body)).not.toContain("hash");
    expect(JSON.stringify(list.body)).not.toContain("ciphertext");
    const me = await t.call("GET", "/me", { key });
    expect(JSON.stringify(me.body)).not.toContain(key);
    expect(t.logs.join("")).not.toContain(key);
  });

  test("a taken slug is 409 and creates nothing", async () => {
    await t.bootstrap("taken-one");
    const res = await t.call("POST", "/workspaces", { body: { slug: "taken-one", owner_email: "new-person@example.com" } });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("CONFLICT");
    const again = await t.call("POST", "/workspaces", { body: { slug: "taken-two", owner_email: "new-person@example.com" } });
    expect(again.status).toBe(201);
  });

  test("an e-mail that already has an identity is 409 without credentials", async () => {
    await t.bootstrap("first-of-bo", "bo@example.com");
    const res = await t.call("POST", "/workspaces", { body: { slug: "second-of-bo", owner_email: "BO@example.com" } });
    expect(res.status).toBe(409);
  });

  test("with a person's key, the caller owns the new workspace and gets a key scoped to it", async () => {
    const first = await t.bootstrap("multi-one", "multi@example.com");
    const res = await t.call("POST", "/workspaces", { key: first.key, body: { slug: "multi-two" } });
    expect(res.status).toBe(201);
    expect(res.body.owner.id).toBe(first.body.owner.id);
    const second = res.body.api_key.key;
    expect((await t.call("GET", "/workspaces/multi-two", { key: second })).status).toBe(200);
    expect((await t.call("GET", "/workspaces/multi-one", { key: second })).status).toBe(404);
    const me = await t.call("GET", "/me", { key: second });
    expect(me.body.memberships.map((m: any) => m.workspace.slug)).toEqual(["multi-one", "multi-two"]);
    const withEmail = await t.call("POST", "/workspaces", { key: first.key, body: { slug: "multi-three", owner_email: "x@example.com" } });
    expect(withEmail.status).toBe(400);
  });

  test("a service key cannot bootstrap a workspace (403); an invalid key is 401", async () => {
    const { key, slug } = await t.bootstrap("svc-boot");
    const svc = await t.call("POST", `/workspaces/${slug}/api-keys`, { key, body: { service: true } });
    const res = await t.call("POST", "/workspaces", { key: svc.body.key, body: { slug: "svc-made" } });
    expect(res.status).toBe(403);
    const bad = await t.call("POST", "/workspaces", { key: "wks_" + "a".repeat(40), body: { slug: "svc-made" } });
    expect(bad.status).toBe(401);
  });

  const bad: Array<[string, unknown]> = [
    ["uppercase slug", { slug: "Acme", owner_email: "a@example.com" }],
    ["too short slug", { slug: "ab", owner_email: "a@example.com" }],
    ["too long slug", { slug: "a".repeat(49), owner_email: "a@example.com" }],
    ["slug with a leading dash", { slug: "-acme", owner_email: "a@example.com" }],
    ["slug with a space", { slug: "ac me", owner_email: "a@example.com" }],
    ["unknown field", { slug: "fine-slug", owner_email: "a@example.com", admin: true }],
    ["wrong type", { slug: 42, owner_email: "a@example.com" }],
    ["over-long name", { slug: "fine-slug", name: "n".repeat(121), owner_email: "a@example.com" }],
    ["bad e-mail", { slug: "fine-slug", owner_email: "not-an-email" }],
    ["missing owner_email", { slug: "fine-slug" }],
    ["array body", [1, 2]],
  ];
  for (const [what, body] of bad) {
    test(`rejects ${what} with 400 VALIDATION_FAILED`, async () => {
      const res = await t.call("POST", "/workspaces", { body });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("VALIDATION_FAILED");
      expect(typeof res.body.error.request_id).toBe("string");
    });
  }

  test("none of the rejected requests wrote anything", async () => {
    const res = await t.call("POST", "/workspaces", { body: { slug: "fine-slug", owner_email: "a@example.com" } });
    expect(res.status).toBe(201);
  });

  test("malformed JSON and non-JSON bodies are 400", async () => {
    const broken = await t.call("POST", "/workspaces", { rawBody: "{", headers: { "content-type": "application/json" } });
    expect(broken.status).toBe(400);
    expect(broken.body.error.code).toBe("VALIDATION_FAILED");
    const form = await t.call("POST", "/workspaces", {
      rawBody: "slug=abc",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(form.status).toBe(400);
  });

  test("a body over the size limit is 413 with the envelope", async () => {
    const res = await t.call("POST", "/workspaces", { body: { slug: "big-one", name: "x".repeat(70 * 1024) } });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe("PAYLOAD_TOO_LARGE");
  });
});
