import { beforeAll, describe, expect, test } from "bun:test";
import { createSession } from "../../core/identity/mod.ts";
import { issueTokensFor } from "../support/oauth-tokens.ts";
import { makeTestApp, type TestApp } from "../support/test-app.ts";

/**
 * WORKSPACE_BOOTSTRAP=operator (docs/decisions/052-server-paths-and-outbound-addresses.md): a
 * closed server, where only the platform operator key creates workspaces. Open (the default) is
 * covered by bootstrap.test.ts.
 */
const OPERATOR_KEY = "wkp_operator-key-for-tests-0123456789abcdef";

let t: TestApp;
let owner: string;
let identityId: string;
const create = (slug: string, headers: Record<string, string> = {}, body: Record<string, unknown> = {}) =>
  t.call("POST", "/workspaces", { headers, body: { slug, owner_email: `${slug}@example.com`, ...body } });

beforeAll(async () => {
  t = await makeTestApp(undefined, { workspaceBootstrap: "operator", platformAdminKey: OPERATOR_KEY });
  const first = await create("closed-first", { "x-api-key": OPERATOR_KEY });
  expect(first.status).toBe(201);
  owner = first.body.api_key.key;
  identityId = first.body.owner.id;
});

describe("POST /workspaces with WORKSPACE_BOOTSTRAP=operator", () => {
  test("the platform operator key creates a workspace owned by a new identity from owner_email, whose key works", async () => {
    const res = await create("closed-by-operator", { authorization: `Bearer ${OPERATOR_KEY}` }, { name: "Closed" });
    expect(res.status).toBe(201);
    expect(res.body.owner.email).toBe("closed-by-operator@example.com");
    expect(res.body.member.role).toBe("owner");
    expect((await t.call("GET", "/workspaces/closed-by-operator", { key: res.body.api_key.key })).status).toBe(200);
  });

  test("without a credential: 401, naming the setting, nothing created", async () => {
    const res = await create("closed-anonymous");
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe("UNAUTHENTICATED");
    expect(res.body.error.message).toContain("WORKSPACE_BOOTSTRAP=operator");
    expect(await t.core.stores.workspaces.getBySlug("closed-anonymous")).toBeNull();
  });

  test("a key that is nobody's: 401", async () => {
    const res = await create("closed-wrong-key", { "x-api-key": "wks_" + "a".repeat(40) });
    expect(res.status).toBe(401);
    expect(await t.core.stores.workspaces.getBySlug("closed-wrong-key")).toBeNull();
  });

  test("an owner's API key, an OAuth token with work:write and the dashboard session: 403 with a clear message", async () => {
    const token = (await issueTokensFor(t, owner, ["work:read", "work:write"])).access_token;
    const session = `wks_session=${(await createSession(t.core as never, identityId)).token}`;
    const callers: [string, Record<string, string>][] = [
      ["owner key", { "x-api-key": owner }],
      ["oauth token", { authorization: `Bearer ${token}` }],
      ["session", { cookie: session, origin: "http://localhost" }],
    ];
    for (const [name, headers] of callers) {
      const res = await t.call("POST", "/workspaces", { headers, body: { slug: `closed-${name.replace(/\W/g, "-")}` } });
      expect([name, res.status, res.body.error.code]).toEqual([name, 403, "FORBIDDEN"]);
      expect(res.body.error.message).toBe(
        "Cannot create a workspace: on this server only the platform operator key (PLATFORM_ADMIN_KEY) may (WORKSPACE_BOOTSTRAP=operator)",
      );
    }
    expect((await t.call("GET", "/workspaces/closed-first", { key: owner })).status).toBe(200);
  });

  test("the OpenAPI document says who may create workspaces", async () => {
    const doc = await t.call("GET", "/openapi.json");
    expect(doc.body.paths["/api/v1/workspaces"].post.description).toContain(
      "unless the server runs with `WORKSPACE_BOOTSTRAP=operator`: then only the platform operator key",
    );
  });
});
