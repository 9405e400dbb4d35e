import { beforeAll, describe, expect, test } from "bun:test";
import { withAuthCache } from "../../adapters/cache/cached-stores.ts";
import { createLocalInvalidationBus } from "../../adapters/cache/invalidation-bus.ts";
import type { Scope } from "../../core/access/scopes.ts";
import { revokeToken } from "../../core/identity/mod.ts";
import type { Stores } from "../../core/stores.ts";
import { issueTokens } from "../support/oauth-tokens.ts";
import { type Personas, personas } from "../support/personas.ts";
import { makeTestApp, type TestApp } from "../support/test-app.ts";

/** OAuth access tokens authenticate requests: real tokens, issued by the core use cases. */
export function runOAuthTokenSuite(name: string, open: () => Promise<Stores>) {
  describe(name, () => {
    let t: TestApp;
    let p: Personas;
    const ws = "/workspaces/oauth-tok";
    const bearer = (value: string) => ({ authorization: `Bearer ${value}` });
    /** A token for the person of `key`, in the key's workspace. */
    const tokenFor = async (key: string, scopes: Scope[]) => {
      const me = await t.call("GET", "/me", { key });
      return issueTokens(t.core, { identityId: me.body.identity.id, workspaceId: me.body.workspace.id }, scopes);
    };
    beforeAll(async () => {
      t = await makeTestApp(withAuthCache(await open(), createLocalInvalidationBus()));
      p = await personas(t, "oauth-tok");
    });

    test("a wkat_ token reads as its person, over oauth, with its grant's scopes and client", async () => {
      const tok = await tokenFor(p.member, ["work:read"]);
      expect(tok.access_token).toStartWith("wkat_");
      expect((await t.call("GET", `${ws}/topics`, { headers: bearer(tok.access_token) })).status).toBe(200);
      const me = await t.call("GET", "/me", { headers: bearer(tok.access_token) });
      expect(me.status).toBe(200);
      expect(me.body.principal).toEqual({
        kind: "identity",
        via: "oauth",
        credential_id: tok.grant_id,
        client_id: tok.client_id,
        scopes: ["work:read"],
      });
      expect(me.body.role).toBe("member");
      expect(me.body.memberships).toEqual([{
        workspace: { id: me.body.workspace.id, slug: "oauth-tok", name: expect.any(String) },
        role: "member",
      }]);
    });

    test("a write without work:write is 403 insufficient_scope, and nothing is written", async () => {
      const tok = await tokenFor(p.owner, ["work:read"]);
      const res = await t.call("POST", `${ws}/topics`, { headers: bearer(tok.access_token), body: { title: "Token writes" } });
      expect(res.status).toBe(403);
      expect(res.body.error.required_scope).toBe("work:read work:write");
      expect(res.headers.get("www-authenticate")).toContain('error="insufficient_scope", scope="work:read work:write"');
      const written = await tokenFor(p.member, ["work:read", "work:write"]);
      const ok = await t.call("POST", `${ws}/topics`, { headers: bearer(written.access_token), body: { title: "Token writes" } });
      expect(ok.status).toBe(201);
    });

    test("owner operations need an owner's token with work:write", async () => {
      const owners = await tokenFor(p.owner, ["work:read", "work:write"]);
      const created = await t.call("POST", `${ws}/areas`, { headers: bearer(owners.access_token), body: { name: "Token area" } });
      expect(created.status).toBe(201);
      const readOnly = await tokenFor(p.owner, ["work:read"]);
      const scoped = await t.call("POST", `${ws}/areas`, { headers: bearer(readOnly.access_token), body: { name: "Read-only area" } });
      expect(scoped.status).toBe(403);
      expect(scoped.headers.get("www-authenticate")).toContain("insufficient_scope");
      const members = await tokenFor(p.member, ["work:read", "work:write"]);
      const role = await t.call("POST", `${ws}/areas`, { headers: bearer(members.access_token), body: { name: "Member area" } });
      expect(role.status).toBe(403);
      expect(role.headers.get("www-authenticate")).toBeNull();
      const keys = await t.call("POST", `${ws}/api-keys`, { headers: bearer(readOnly.access_token), body: { name: "minted" } });
      expect(keys.status).toBe(403);
    });

    test("revoking the token, or its grant, bites at once", async () => {
      const tok = await tokenFor(p.member, ["work:read"]);
      expect((await t.call("GET", `${ws}/topics`, { headers: bearer(tok.access_token) })).status).toBe(200);
      const client = (await t.core.stores.oauthClients.get(tok.client_id))!;
      expect((await revokeToken(t.core, client, tok.access_token)).ok).toBe(true);
      const res = await t.call("GET", `${ws}/topics`, { headers: bearer(tok.access_token) });
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toContain('error="invalid_token"');

      const other = await tokenFor(p.member, ["work:read"]);
      expect((await t.call("GET", `${ws}/topics`, { headers: bearer(other.access_token) })).status).toBe(200);
      expect((await revokeToken(t.core, client, other.refresh_token!)).ok).toBe(true); // another client's: nothing
      const otherClient = (await t.core.stores.oauthClients.get(other.client_id))!;
      expect((await revokeToken(t.core, otherClient, other.refresh_token!)).ok).toBe(true);
      expect((await t.call("GET", `${ws}/topics`, { headers: bearer(other.access_token) })).status).toBe(401);
    });

    test("a demoted owner's token loses owner operations at once; a former member's token is 401", async () => {
      const { key: ownerKey } = await t.bootstrap("oauth-demote");
      const second = await t.call("POST", "/workspaces/oauth-demote/members", {
        key: ownerKey,
        body: { email: "second-owner@example.com", role: "owner" },
      });
      expect(second.status).toBe(201);
      const tok = await tokenFor(ownerKey, ["work:read", "work:write"]);
      const area = (name: string) =>
        t.call("POST", "/workspaces/oauth-demote/areas", { headers: bearer(tok.access_token), body: { name } });
      expect((await area("Before")).status).toBe(201);
      const me = await t.call("GET", "/me", { key: ownerKey });
      const secondKey = await t.call("POST", "/workspaces/oauth-demote/api-keys", {
        key: ownerKey,
        body: { member_id: second.body.id, name: "second" },
      });
      const list = await t.call("GET", "/workspaces/oauth-demote/members", { key: ownerKey });
      const mine = list.body.members.find((m: any) => m.identity_id === me.body.identity.id);
      const demoted = await t.call("PATCH", `/workspaces/oauth-demote/members/${mine.id}`, {
        key: secondKey.body.key,
        body: { role: "member" },
      });
      expect(demoted.status).toBe(200);
      const after = await area("After");
      expect(after.status).toBe(403);
      expect(after.body.error.message).toContain("owner or admin");
      expect((await t.call("GET", "/workspaces/oauth-demote/topics", { headers: bearer(tok.access_token) })).status).toBe(200);

      expect((await t.call("DELETE", `/workspaces/oauth-demote/members/${mine.id}`, { key: secondKey.body.key })).status).toBe(200);
      const gone = await t.call("GET", "/workspaces/oauth-demote/topics", { headers: bearer(tok.access_token) });
      expect(gone.status).toBe(401);
      expect(gone.headers.get("www-authenticate")).toContain('error="invalid_token"');
    });

    test("a token of workspace A on workspace B's routes is a 404", async () => {
      await t.bootstrap("oauth-tok-b");
      const tok = await tokenFor(p.owner, ["work:read", "work:write"]);
      expect((await t.call("GET", "/workspaces/oauth-tok-b/topics", { headers: bearer(tok.access_token) })).status).toBe(404);
    });

    test("a malformed or unknown wkat_ token is 401 invalid_token", async () => {
      const res = await t.call("GET", `${ws}/topics`, { headers: bearer("wkat_" + "a".repeat(52)) });
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toContain('error="invalid_token"');
    });
  });
}
