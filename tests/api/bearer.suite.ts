import { beforeAll, describe, expect, test } from "bun:test";
import { withAuthCache } from "../../adapters/cache/cached-stores.ts";
import { createLocalInvalidationBus } from "../../adapters/cache/invalidation-bus.ts";
import type { Stores } from "../../core/stores.ts";
import { issueTokensFor } from "../support/oauth-tokens.ts";
import { type Personas, personas } from "../support/personas.ts";
import { makeTestApp, type TestApp } from "../support/test-app.ts";

const METADATA = 'resource_metadata="http://localhost/.well-known/oauth-protected-resource"';

/** Bearer credentials, the 401 and 403 challenges and the protected-resource metadata, over one store. */
export function runBearerSuite(name: string, open: () => Promise<Stores>) {
  describe(name, () => {
    let t: TestApp;
    let p: Personas;
    const ws = "/workspaces/bearer";
    const bearer = (value: string) => ({ authorization: `Bearer ${value}` });
    /** OAuth access tokens, issued by the authorization server's use cases: an owner's read-only one, a member's two narrower ones. */
    const tok = { read: "", write: "", relate: "" };
    beforeAll(async () => {
      t = await makeTestApp(withAuthCache(await open(), createLocalInvalidationBus()));
      p = await personas(t, "bearer");
      tok.read = (await issueTokensFor(t, p.owner, ["work:read"])).access_token;
      tok.write = (await issueTokensFor(t, p.member, ["work:read", "work:write"])).access_token;
      tok.relate = (await issueTokensFor(t, p.member, ["work:read", "topics:write"])).access_token;
    });

    describe("Authorization: Bearer <api key>", () => {
      test("is accepted wherever x-api-key is: a workspace route, /me and the bootstrap", async () => {
        const read = await t.call("GET", `${ws}/topics`, { headers: bearer(p.member) });
        expect(read.status).toBe(200);
        const me = await t.call("GET", "/me", { headers: bearer(p.owner) });
        expect(me.status).toBe(200);
        expect(me.body.workspace.slug).toBe("bearer");
        const created = await t.call("POST", "/workspaces", { headers: bearer(p.owner), body: { slug: "bearer-two" } });
        expect(created.status).toBe(201);
        expect(created.body.member.role).toBe("owner");
      });

      test("the scheme is case-insensitive, and the same key in both headers is one credential", async () => {
        expect((await t.call("GET", `${ws}/topics`, { headers: { authorization: `bearer ${p.member}` } })).status).toBe(200);
        const both = await t.call("GET", `${ws}/topics`, { headers: { ...bearer(p.member), "x-api-key": p.member } });
        expect(both.status).toBe(200);
      });

      test("two different credentials are a 401, never a choice between two identities", async () => {
        const res = await t.call("GET", `${ws}/topics`, { headers: { ...bearer(p.member), "x-api-key": p.owner } });
        expect(res.status).toBe(401);
        expect(res.body.error.code).toBe("UNAUTHENTICATED");
        expect(res.body.error.message).toContain("two different values");
      });

      test("a bearer key of another workspace is a 404, as the same key in x-api-key is", async () => {
        const other = await t.bootstrap("bearer-other");
        expect((await t.call("GET", `${ws}/topics`, { headers: bearer(other.key) })).status).toBe(404);
      });

      test("a key in the query string is not a credential", async () => {
        const res = await t.call("GET", `${ws}/topics?access_token=${p.member}`);
        expect([400, 401]).toContain(res.status);
        expect(res.status).not.toBe(200);
      });
    });

    describe("every 401 carries a Bearer challenge", () => {
      test("no credential: resource_metadata, and no error code", async () => {
        const res = await t.call("GET", `${ws}/topics`);
        expect(res.status).toBe(401);
        expect(res.headers.get("www-authenticate")).toBe(`Bearer ${METADATA}`);
      });

      test('a bad bearer credential: error="invalid_token"', async () => {
        for (const value of ["wks_" + "a".repeat(40), "wkat_" + "a".repeat(52), "not-a-token"]) {
          const res = await t.call("GET", `${ws}/topics`, { headers: bearer(value) });
          expect(res.status).toBe(401);
          expect(res.headers.get("www-authenticate")).toBe(`Bearer ${METADATA}, error="invalid_token"`);
        }
      });

      test("a bad x-api-key: the challenge, without invalid_token (no bearer was sent)", async () => {
        const res = await t.call("GET", "/me", { key: "wks_" + "b".repeat(40) });
        expect(res.status).toBe(401);
        expect(res.headers.get("www-authenticate")).toBe(`Bearer ${METADATA}`);
      });

      test("a revoked key sent as a bearer is invalid_token at once", async () => {
        const k = await t.call("POST", `${ws}/api-keys`, { key: p.owner, body: { name: "short-lived" } });
        expect((await t.call("GET", "/me", { headers: bearer(k.body.key) })).status).toBe(200);
        expect((await t.call("DELETE", `${ws}/api-keys/${k.body.id}`, { key: p.owner })).status).toBe(200);
        const res = await t.call("GET", "/me", { headers: bearer(k.body.key) });
        expect(res.status).toBe(401);
        expect(res.headers.get("www-authenticate")).toContain('error="invalid_token"');
      });
    });

    describe("scopes", () => {
      test("a read-only token reads, and a write is 403 with an insufficient_scope challenge", async () => {
        expect((await t.call("GET", `${ws}/topics`, { headers: bearer(tok.read) })).status).toBe(200);
        const res = await t.call("POST", `${ws}/topics`, { headers: bearer(tok.read), body: { title: "Read-only writes" } });
        expect(res.status).toBe(403);
        expect(res.body.error.code).toBe("FORBIDDEN");
        expect(res.body.error.required_scope).toBe("work:read work:write");
        expect(res.headers.get("www-authenticate")).toBe(`Bearer error="insufficient_scope", scope="work:read work:write", ${METADATA}`);
        const listed = await t.call("GET", `${ws}/topics?status=draft`, { key: p.owner });
        expect(listed.body.topics.map((x: any) => x.title)).not.toContain("Read-only writes");
      });

      test("work:write writes; adding a relation takes topics:write, and topics:write alone relates but does not write", async () => {
        const a = await t.call("POST", `${ws}/topics`, { headers: bearer(tok.write), body: { title: "Scoped A" } });
        expect(a.status).toBe(201);
        const b = await t.call("POST", `${ws}/topics`, { key: p.member, body: { title: "Scoped B" } });
        const relate = (token: string) =>
          t.call("POST", `${ws}/topics/${a.body.slug}/relations`, {
            headers: bearer(token),
            body: { type: "relates_to", target: b.body.slug },
          });
        const refused = await relate(tok.write);
        expect(refused.status).toBe(403);
        expect(refused.headers.get("www-authenticate")).toBe(
          `Bearer error="insufficient_scope", scope="work:read topics:write", ${METADATA}`,
        );
        expect((await relate(tok.relate)).status).toBe(201);
        const write = await t.call("POST", `${ws}/topics`, { headers: bearer(tok.relate), body: { title: "Scoped C" } });
        expect(write.status).toBe(403);
      });

      test("a 403 that is not about scopes carries no challenge", async () => {
        const res = await t.call("DELETE", `${ws}`, { key: p.member });
        expect(res.status).toBe(403);
        expect(res.headers.get("www-authenticate")).toBeNull();
      });
    });

    describe("GET /.well-known/oauth-protected-resource", () => {
      test("names the resource, its authorization server, scopes and header-only bearer use, for any origin", async () => {
        const res = await t.call("GET", "/.well-known/oauth-protected-resource", {
          root: true,
          headers: { origin: "https://elsewhere.example" },
        });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({
          resource: "http://localhost",
          authorization_servers: ["http://localhost"],
          scopes_supported: ["work:read", "work:write", "topics:write"],
          bearer_methods_supported: ["header"],
          resource_name: expect.any(String),
        });
        expect(res.headers.get("access-control-allow-origin")).toBe("*");
        expect(res.headers.get("access-control-allow-credentials")).toBeNull();
      });

      test("answers a preflight from any origin", async () => {
        const res = await t.call("OPTIONS", "/.well-known/oauth-protected-resource", {
          root: true,
          headers: { origin: "https://elsewhere.example", "access-control-request-method": "GET" },
        });
        expect(res.status).toBe(204);
        expect(res.headers.get("access-control-allow-origin")).toBe("*");
      });
    });
  });
}
