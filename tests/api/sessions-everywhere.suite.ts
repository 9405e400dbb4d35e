import { beforeAll, describe, expect, test } from "bun:test";
import { withAuthCache } from "../../adapters/cache/cached-stores.ts";
import { createOidcProvider } from "../../adapters/oidc/oauth4webapi-provider.ts";
import { createLocalInvalidationBus } from "../../adapters/cache/invalidation-bus.ts";
import { createSession } from "../../core/identity/mod.ts";
import { s256Challenge } from "../../core/identity/pkce.ts";
import type { Stores } from "../../core/stores.ts";
import { issueTokensFor } from "../support/oauth-tokens.ts";
import { makeTestApp, type TestApp } from "../support/test-app.ts";

const ORIGIN = "http://localhost";
const OPERATOR_KEY = "platform-operator-key-0123456789abcdef";
const VERIFIER = "s".repeat(50);
const REDIRECT = "http://127.0.0.1:8123/cb";

/**
 * The dashboard session wherever a person acts (docs/decisions/044-sessions-everywhere-a-person-acts.md):
 * creating a workspace, the JSON decision of the consent page, and not the operator's routes.
 * Sessions are real ones, made by the session use case the OpenID Connect callback calls.
 */
export function runSessionsEverywhereSuite(name: string, open: () => Promise<Stores>) {
  describe(name, () => {
    let t: TestApp;
    let cookie: string;
    let ownerKey: string;
    let identityId: string;
    beforeAll(async () => {
      t = await makeTestApp(withAuthCache(await open(), createLocalInvalidationBus()), {
        platformAdminKey: OPERATOR_KEY,
        // An identity provider is configured, so the consent page decides by session; it is never
        // reached here (discovery waits for a sign-in): the sessions come from the use case.
        oidc: createOidcProvider({ issuer: "http://127.0.0.1:9", clientId: "unused", clientSecret: "unused" }),
      });
      const a = await t.bootstrap("se-a", "se-person@example.com");
      await t.bootstrap("se-b", "se-other@example.com");
      ownerKey = a.key;
      identityId = a.body.owner.id;
      cookie = `wks_session=${(await createSession(t.core as never, identityId)).token}`;
    });
    const asSession = (extra: Record<string, string> = {}) => ({ cookie, origin: ORIGIN, ...extra });

    describe("POST /workspaces", () => {
      test("with a session, the signed-in person owns the new workspace and reaches it by the session", async () => {
        const res = await t.call("POST", "/workspaces", { headers: asSession(), body: { slug: "se-made", name: "Made signed in" } });
        expect(res.status).toBe(201);
        expect(res.body.owner.id).toBe(identityId);
        expect(res.body.owner.email).toBe("se-person@example.com");
        expect(res.body.member.role).toBe("owner");
        // The owner's first key, as for every bootstrap, is theirs and scoped to the new workspace.
        const byKey = await t.call("GET", "/me", { key: res.body.api_key.key });
        expect(byKey.body.workspace.slug).toBe("se-made");
        expect(byKey.body.identity.id).toBe(identityId);
        const me = await t.call("GET", "/me", { headers: { cookie } });
        expect(me.body.memberships.map((m: any) => [m.workspace.slug, m.role]).sort()).toEqual([["se-a", "owner"], [
          "se-made",
          "owner",
        ]]);
        const ws = await t.call("GET", "/workspaces/se-made", { headers: { cookie } });
        expect(ws.status).toBe(200);
        expect(ws.body.name).toBe("Made signed in");
      });

      test("riding the cookie from another origin, or with none, is 403 and creates nothing", async () => {
        for (const headers of [{ cookie }, { cookie, origin: "https://evil.example" }] as Array<Record<string, string>>) {
          const res = await t.call("POST", "/workspaces", { headers, body: { slug: "se-csrf" } });
          expect(res.status).toBe(403);
          expect(res.body.error.code).toBe("FORBIDDEN");
        }
        const me = await t.call("GET", "/me", { headers: { cookie } });
        expect(me.body.memberships.map((m: any) => m.workspace.slug)).not.toContain("se-csrf");
        // The slug is still free: nothing was half-made.
        expect((await t.call("POST", "/workspaces", { key: ownerKey, body: { slug: "se-csrf" } })).status).toBe(201);
      });

      test("with a session, owner_email is refused (400), as with a key: the person is the owner", async () => {
        const res = await t.call("POST", "/workspaces", {
          headers: asSession(),
          body: { slug: "se-email", owner_email: "someone-else@example.com" },
        });
        expect(res.status).toBe(400);
        expect(res.body.error.code).toBe("VALIDATION_FAILED");
      });

      test("an ended session is no credential: the request is the anonymous bootstrap (and the cookie is cleared)", async () => {
        const stale = `wks_session=${"b".repeat(32)}`;
        const noEmail = await t.call("POST", "/workspaces", { headers: { cookie: stale, origin: ORIGIN }, body: { slug: "se-stale" } });
        expect(noEmail.status).toBe(400);
        expect(noEmail.headers.get("set-cookie") ?? "").toContain("wks_session=;");
        const anonymous = await t.call("POST", "/workspaces", {
          headers: { cookie: stale, origin: ORIGIN },
          body: { slug: "se-stale", owner_email: "se-stale@example.com" },
        });
        expect(anonymous.status).toBe(201);
        expect(anonymous.body.owner.email).toBe("se-stale@example.com");
      });

      test("a header credential wins over the cookie; an OAuth token needs work:write", async () => {
        const other = await t.bootstrap("se-c", "se-c@example.com");
        const byKey = await t.call("POST", "/workspaces", { key: other.key, headers: { cookie }, body: { slug: "se-by-key" } });
        expect(byKey.status).toBe(201);
        expect(byKey.body.owner.email).toBe("se-c@example.com");
        const readOnly = await issueTokensFor(t, ownerKey, ["work:read"]);
        const refused = await t.call("POST", "/workspaces", {
          headers: { authorization: `Bearer ${readOnly.access_token}` },
          body: { slug: "se-by-token" },
        });
        expect(refused.status).toBe(403);
        expect(refused.headers.get("www-authenticate")).toContain('error="insufficient_scope"');
        const writer = await issueTokensFor(t, ownerKey, ["work:read", "work:write"]);
        const made = await t.call("POST", "/workspaces", {
          headers: { authorization: `Bearer ${writer.access_token}` },
          body: { slug: "se-by-token" },
        });
        expect(made.status).toBe(201);
        expect(made.body.owner.id).toBe(identityId);
      });
    });

    describe("POST /oauth/authorize (JSON) by session", () => {
      let clientId: string;
      const decision = (extra: Record<string, unknown> = {}) => ({
        client_id: clientId,
        redirect_uri: REDIRECT,
        response_type: "code",
        scope: "work:read work:write",
        state: "st-session",
        code_challenge: s256Challenge(VERIFIER),
        code_challenge_method: "S256",
        decision: "approve",
        ...extra,
      });
      /** The consent page, signed in: its CSRF token (bound to the session) and its cookie, with the session's. */
      const consentPage = async (base = "", session = cookie) => {
        const query = new URLSearchParams(decision() as Record<string, string>);
        query.delete("decision");
        const page = await t.call("GET", `${base}/oauth/authorize?${query}`, { headers: { cookie: session } });
        expect(page.status).toBe(200);
        const csrfCookie = page.headers.getSetCookie().find((c) => c.startsWith("oauth_csrf="))!.split(";")[0]!;
        return { csrf: /name="csrf_token" value="([^"]+)"/.exec(page.body)![1]!, cookie: `${session}; ${csrfCookie}`, query };
      };
      beforeAll(async () => {
        const reg = await t.call("POST", "/oauth/register", {
          body: { redirect_uris: [REDIRECT], token_endpoint_auth_method: "none", client_name: "Session agent" },
        });
        expect(reg.status).toBe(201);
        clientId = reg.body.client_id;
      });

      test("the signed-in person approves in a workspace of theirs: 201 redirect_to with code, state and iss; the code redeems", async () => {
        const page = await consentPage();
        const res = await t.call("POST", "/oauth/authorize", {
          headers: { cookie: page.cookie, origin: ORIGIN },
          body: decision({ workspace: "se-a", csrf_token: page.csrf }),
        });
        expect(res.status).toBe(201);
        const back = new URL(res.body.redirect_to);
        expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
        expect(back.searchParams.get("state")).toBe("st-session");
        expect(back.searchParams.get("iss")).toBe(ORIGIN);
        const token = await t.call("POST", "/oauth/token", {
          rawBody: new URLSearchParams({
            grant_type: "authorization_code",
            code: back.searchParams.get("code")!,
            code_verifier: VERIFIER,
            redirect_uri: REDIRECT,
            client_id: clientId,
          }).toString(),
          headers: { "content-type": "application/x-www-form-urlencoded" },
        });
        expect(token.status).toBe(200);
        // The token acts as the person who decided, in the workspace they chose.
        const me = await t.call("GET", "/me", { headers: { authorization: `Bearer ${token.body.access_token}` } });
        expect(me.body.identity.id).toBe(identityId);
        expect(me.body.workspace.slug).toBe("se-a");
        expect(me.body.principal.scopes).toEqual(["work:read", "work:write"]);
      });

      test("at a workspace mount the session decides in that workspace; a workspace not theirs is 404", async () => {
        const page = await consentPage("/workspaces/se-a");
        const res = await t.call("POST", "/workspaces/se-a/oauth/authorize", {
          headers: { cookie: page.cookie, origin: ORIGIN },
          body: decision({ csrf_token: page.csrf }),
        });
        expect(res.status).toBe(201);
        expect(new URL(res.body.redirect_to).searchParams.get("iss")).toBe(`${ORIGIN}/api/v1/workspaces/se-a`);
        const foreign = await t.call("POST", "/workspaces/se-b/oauth/authorize", {
          headers: { cookie: page.cookie, origin: ORIGIN },
          body: decision({ csrf_token: page.csrf }),
        });
        expect(foreign.status).toBe(404);
        const chosen = await t.call("POST", "/oauth/authorize", {
          headers: { cookie: page.cookie, origin: ORIGIN },
          body: decision({ workspace: "se-b", csrf_token: page.csrf }),
        });
        expect(chosen.status).toBe(404);
      });

      test("deny sends access_denied; no workspace named at the root mount is 400", async () => {
        const page = await consentPage();
        const denied = await t.call("POST", "/oauth/authorize", {
          headers: { cookie: page.cookie, origin: ORIGIN },
          body: decision({ decision: "deny", workspace: "se-a", csrf_token: page.csrf }),
        });
        expect(denied.status).toBe(201);
        expect(new URL(denied.body.redirect_to).searchParams.get("error")).toBe("access_denied");
        const unnamed = await t.call("POST", "/oauth/authorize", {
          headers: { cookie: page.cookie, origin: ORIGIN },
          body: decision({ csrf_token: page.csrf }),
        });
        expect(unnamed.status).toBe(400);
        expect(unnamed.body.error.code).toBe("VALIDATION_FAILED");
      });

      test("another Origin, no CSRF token, or another token than the cookie's: 403, nothing issued", async () => {
        const page = await consentPage();
        const other = await consentPage();
        const cases: Array<[Record<string, string>, Record<string, unknown>]> = [
          [{ cookie: page.cookie }, { csrf_token: page.csrf }],
          [{ cookie: page.cookie, origin: "https://evil.example" }, { csrf_token: page.csrf }],
          [{ cookie: page.cookie, origin: ORIGIN }, {}],
          [{ cookie: page.cookie, origin: ORIGIN }, { csrf_token: other.csrf }],
          [{ cookie, origin: ORIGIN }, { csrf_token: page.csrf }],
        ];
        for (const [headers, extra] of cases) {
          const res = await t.call("POST", "/oauth/authorize", { headers, body: decision({ workspace: "se-a", ...extra }) });
          expect(res.status).toBe(403);
          expect(res.body.redirect_to).toBeUndefined();
        }
      });

      test("a token of another session of the same person does not decide: 403", async () => {
        const second = `wks_session=${(await createSession(t.core as never, identityId)).token}`;
        const page = await consentPage("", second);
        const res = await t.call("POST", "/oauth/authorize", {
          headers: { cookie: `${cookie}; ${page.cookie.split("; ")[1]}`, origin: ORIGIN },
          body: decision({ workspace: "se-a", csrf_token: page.csrf }),
        });
        expect(res.status).toBe(403);
      });

      test("the consent form's post: a browser's Origin null passes with the session's token; another site's Origin is 403", async () => {
        const page = await consentPage();
        const form = (csrf: string) =>
          new URLSearchParams({ ...Object.fromEntries(page.query), csrf_token: csrf, workspace: "se-a", decision: "approve" }).toString();
        const post = (headers: Record<string, string>, csrf = page.csrf) =>
          t.call("POST", "/oauth/authorize", {
            rawBody: form(csrf),
            headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
          });
        // The page's Referrer-Policy: no-referrer makes browsers send its form's post with Origin: null.
        expect((await post({ cookie: page.cookie, origin: "https://evil.example" })).status).toBe(403);
        expect((await post({ cookie: page.cookie })).status).toBe(403);
        // A token not bound to this session (issued to another one) is refused even so.
        const other = await consentPage("", `wks_session=${(await createSession(t.core as never, identityId)).token}`);
        const unbound = await post({ cookie: `${cookie}; ${other.cookie.split("; ")[1]}`, origin: "null" }, other.csrf);
        expect(unbound.status).toBe(400);
        const decided = await post({ cookie: page.cookie, origin: "null" });
        expect(decided.status).toBe(303);
        const back = new URL(decided.headers.get("location")!);
        expect(back.searchParams.get("code")).toMatch(/^wkac_/);
        expect(back.searchParams.get("state")).toBe("st-session");
      });

      test("no session and no key: 401; an OAuth token is no decider (403)", async () => {
        const page = await consentPage();
        const none = await t.call("POST", "/oauth/authorize", { headers: { origin: ORIGIN }, body: decision({ workspace: "se-a" }) });
        expect(none.status).toBe(401);
        const token = await issueTokensFor(t, ownerKey, ["work:read", "work:write"]);
        const byToken = await t.call("POST", "/oauth/authorize", {
          headers: { authorization: `Bearer ${token.access_token}`, cookie: page.cookie, origin: ORIGIN },
          body: decision({ csrf_token: page.csrf }),
        });
        expect(byToken.status).toBe(403);
      });
    });

    describe("the platform operator's routes stay the operator key's", () => {
      test("a session is no operator: /platform/** and the credit grant are 401 without the key, even for an owner", async () => {
        for (
          const [method, path, body] of [
            ["GET", "/platform/billing/workspaces", undefined],
            ["GET", "/platform/billing/plans", undefined],
            ["POST", "/workspaces/se-a/radar/credits/grant", { amount: 10, reason: "by session" }],
          ] as const
        ) {
          const res = await t.call(method, path, { headers: asSession(), ...(body ? { body } : {}) });
          expect({ path, status: res.status }).toEqual({ path, status: 401 });
        }
        // The operator key reaches them; the owner's own key is 403.
        expect((await t.call("GET", "/platform/billing/plans", { key: OPERATOR_KEY, headers: { cookie } })).status).toBe(200);
        expect((await t.call("GET", "/platform/billing/plans", { key: ownerKey })).status).toBe(403);
      });
    });
  });
}
