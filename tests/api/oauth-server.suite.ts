import { beforeAll, describe, expect, test } from "bun:test";
import { withAuthCache } from "../../adapters/cache/cached-stores.ts";
import { createLocalInvalidationBus } from "../../adapters/cache/invalidation-bus.ts";
import { s256Challenge } from "../../core/identity/pkce.ts";
import type { Stores } from "../../core/stores.ts";
import { type Personas, personas } from "../support/personas.ts";
import { makeTestApp, type TestApp } from "../support/test-app.ts";

const VERIFIER = "x".repeat(50);
const REDIRECT = "http://127.0.0.1:8123/cb";

/** The authorization server over HTTP: metadata, registration, consent, token, revocation, grants. */
export function runOAuthServerSuite(name: string, open: () => Promise<Stores>) {
  describe(name, () => {
    let t: TestApp;
    let p: Personas;
    const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
    const post = (path: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
      t.call("POST", path, { rawBody: form(fields), headers: { "content-type": "application/x-www-form-urlencoded", ...headers } });
    const register = async (body: Record<string, unknown> = {}, base = "") => {
      const res = await t.call("POST", `${base}/oauth/register`, {
        body: {
          redirect_uris: [REDIRECT],
          grant_types: ["authorization_code", "refresh_token"],
          token_endpoint_auth_method: "none",
          client_name: "Agent <b>",
          ...body,
        },
      });
      expect(res.status).toBe(201);
      return res.body;
    };
    const authorizeQuery = (clientId: string, extra: Record<string, string> = {}) =>
      new URLSearchParams({
        client_id: clientId,
        redirect_uri: REDIRECT,
        response_type: "code",
        scope: "work:read work:write",
        state: "st-1",
        code_challenge: s256Challenge(VERIFIER),
        code_challenge_method: "S256",
        ...extra,
      });
    /** GET the consent page, then post its form with the key: the 303's Location. */
    const consent = async (clientId: string, key: string, base = "", decision = "approve") => {
      const page = await t.call("GET", `${base}/oauth/authorize?${authorizeQuery(clientId)}`);
      expect(page.status).toBe(200);
      const cookie = page.headers.get("set-cookie")!.split(";")[0]!;
      const csrf = /name="csrf_token" value="([^"]+)"/.exec(page.body)![1]!;
      const fields = Object.fromEntries(authorizeQuery(clientId));
      const res = await post(`${base}/oauth/authorize`, { ...fields, csrf_token: csrf, api_key: key, decision }, { cookie });
      expect(res.status).toBe(303);
      return new URL(res.headers.get("location")!);
    };
    beforeAll(async () => {
      t = await makeTestApp(withAuthCache(await open(), createLocalInvalidationBus()));
      p = await personas(t, "oauth-srv");
    });

    test("RFC 8414 metadata at the root and at a workspace mount, readable from any origin", async () => {
      const root = await t.call("GET", "/.well-known/oauth-authorization-server", { root: true });
      expect(root.status).toBe(200);
      expect(root.headers.get("access-control-allow-origin")).toBe("*");
      expect(root.headers.get("access-control-allow-credentials")).toBeNull();
      expect(root.body).toMatchObject({
        issuer: "http://localhost",
        authorization_endpoint: "http://localhost/api/v1/oauth/authorize",
        token_endpoint: "http://localhost/api/v1/oauth/token",
        registration_endpoint: "http://localhost/api/v1/oauth/register",
        revocation_endpoint: "http://localhost/api/v1/oauth/revoke",
        response_types_supported: ["code"],
        code_challenge_methods_supported: ["S256"],
        grant_types_supported: ["authorization_code", "refresh_token"],
        token_endpoint_auth_methods_supported: ["none", "client_secret_basic", "client_secret_post"],
        authorization_response_iss_parameter_supported: true,
      });
      const ws = await t.call("GET", "/.well-known/oauth-authorization-server/api/v1/workspaces/oauth-srv", { root: true });
      expect(ws.body.issuer).toBe("http://localhost/api/v1/workspaces/oauth-srv");
      expect(ws.body.token_endpoint).toBe("http://localhost/api/v1/workspaces/oauth-srv/oauth/token");
      expect((await t.call("GET", "/.well-known/oauth-authorization-server/api/v1/workspaces/nope-nope", { root: true })).status).toBe(404);
      const preflight = await t.app.handle(
        new Request("http://localhost/api/v1/oauth/token", {
          method: "OPTIONS",
          headers: { origin: "https://evil.example", "access-control-request-method": "POST" },
        }),
      );
      expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    });

    test("registration: public and confidential clients, RFC 7591 errors, public client information", async () => {
      const pub = await register();
      expect(pub.client_id).toStartWith("wkc_");
      expect(pub.client_secret).toBeUndefined();
      const conf = await register({ token_endpoint_auth_method: "client_secret_basic", unknown_field: 1 }, "/workspaces/oauth-srv");
      expect(conf.client_secret).toStartWith("wkcs_");
      const bad = await t.call("POST", "/oauth/register", { body: { redirect_uris: ["http://example.com/cb"] } });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toBe("invalid_redirect_uri");
      expect(typeof bad.body.error_description).toBe("string");
      const info = await t.call("GET", `/oauth/clients/${conf.client_id}`);
      expect(info.status).toBe(200);
      expect(info.body.client_type).toBe("confidential");
      expect(info.body.client_secret).toBeUndefined();
      expect((await t.call("GET", "/workspaces/oauth-srv/oauth/clients/" + conf.client_id)).status).toBe(200);
      expect((await t.call("GET", "/oauth/clients/wkc_unknown")).status).toBe(404);
    });

    test("registration: a body that is not a JSON object is RFC 7591's invalid_client_metadata, not the API's envelope", async () => {
      const bodies: Array<[string, string]> = [
        ["[]", "application/json"],
        ["{not json", "application/json"],
        ["null", "application/json"],
        ["redirect_uris=x", "application/x-www-form-urlencoded"],
        ['{"redirect_uris":["http://127.0.0.1/cb"],"client_name":"a\\u0000b"}', "application/json"],
      ];
      for (const [rawBody, type] of bodies) {
        for (const base of ["", "/workspaces/oauth-srv"]) {
          const res = await t.call("POST", `${base}/oauth/register`, { rawBody, headers: { "content-type": type } });
          expect(res.status).toBe(400);
          expect(res.body).toEqual({ error: "invalid_client_metadata", error_description: expect.any(String) });
        }
      }
    });

    test("the OpenAPI document says what the consent form's post answers: a 303, and pages beside the envelope", async () => {
      const doc = (await t.call("GET", "/openapi.json")).body;
      for (const base of ["/api/v1", "/api/v1/workspaces/{slug}"]) {
        const post = doc.paths[`${base}/oauth/authorize`].post.responses;
        expect(Object.keys(post)).toEqual(expect.arrayContaining(["201", "303", "400", "401", "403", "404"]));
        for (const s of ["400", "401", "403", "404"]) expect(Object.keys(post[s].content)).toEqual(["application/json", "text/html"]);
        const register = doc.paths[`${base}/oauth/register`].post;
        expect(Object.keys(register.requestBody.content)).toEqual(["application/json"]);
        expect(register.responses["400"].content["application/json"].schema).toBeDefined();
      }
    });

    test("registration answers leave out metadata the client did not register, never null (RFC 7591 §3.2.1)", async () => {
      const bare = await t.call("POST", "/oauth/register", { body: { redirect_uris: [REDIRECT], token_endpoint_auth_method: "none" } });
      expect(bare.status).toBe(201);
      expect(Object.values(bare.body)).not.toContain(null);
      for (const field of ["client_name", "client_uri", "logo_uri", "scope"]) expect(bare.body).not.toHaveProperty(field);
      expect(bare.body).toMatchObject({ redirect_uris: [REDIRECT], token_endpoint_auth_method: "none", client_type: "public" });
      const full = await register({ client_uri: "https://agent.example", logo_uri: "https://agent.example/logo.png", scope: "work:read" });
      expect(full).toMatchObject({
        client_name: "Agent <b>",
        client_uri: "https://agent.example",
        logo_uri: "https://agent.example/logo.png",
        scope: "work:read",
      });
      // The client information route keeps its documented shape: null for what is absent.
      const info = await t.call("GET", `/oauth/clients/${bare.body.client_id}`);
      expect(info.body).toMatchObject({ client_name: null, client_uri: null, logo_uri: null, scope: null });
    });

    test("the consent page: script-free, escaped, framed by nobody; untrustworthy requests are 400 HTML, others redirect back", async () => {
      const c = await register();
      const page = await t.call("GET", `/oauth/authorize?${authorizeQuery(c.client_id)}`);
      expect(page.status).toBe(200);
      expect(page.headers.get("content-type")).toContain("text/html");
      expect(page.body).toContain("Agent &lt;b&gt;");
      expect(page.body).not.toContain("<script");
      expect(page.headers.get("content-security-policy")).toContain("form-action http://127.0.0.1:8123 'self'");
      expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
      expect(page.headers.get("x-frame-options")).toBe("DENY");
      expect(page.headers.get("cache-control")).toBe("no-store");
      expect(page.headers.get("referrer-policy")).toBe("no-referrer");
      expect(page.headers.get("set-cookie")).toContain("HttpOnly");

      const unknown = await t.call("GET", `/oauth/authorize?${authorizeQuery("wkc_nobody")}`);
      expect(unknown.status).toBe(400);
      expect(unknown.headers.get("location")).toBeNull();
      const wrongUri = await t.call("GET", `/oauth/authorize?${authorizeQuery(c.client_id, { redirect_uri: "https://evil.example/cb" })}`);
      expect(wrongUri.status).toBe(400);
      for (
        const [extra, error] of [
          [{ response_type: "token" }, "unsupported_response_type"],
          [{ code_challenge_method: "plain" }, "invalid_request"],
          [{ scope: "work:read admin" }, "invalid_scope"],
          [{ resource: "https://elsewhere.example/" }, "invalid_target"],
        ] as const
      ) {
        const res = await t.call("GET", `/oauth/authorize?${authorizeQuery(c.client_id, extra)}`);
        expect(res.status).toBe(303);
        const to = new URL(res.headers.get("location")!);
        expect(to.searchParams.get("error")).toBe(error);
        expect(to.searchParams.get("state")).toBe("st-1");
        expect(to.searchParams.get("iss")).toBe("http://localhost");
      }
      // A loopback IP's port may differ (RFC 8252 §7.3).
      const port = await t.call("GET", `/oauth/authorize?${authorizeQuery(c.client_id, { redirect_uri: "http://127.0.0.1:9999/cb" })}`);
      expect(port.status).toBe(200);
    });

    test("the consent form: CSRF checked, a bad key re-asks, deny redirects access_denied", async () => {
      const c = await register();
      const fields = Object.fromEntries(authorizeQuery(c.client_id));
      const forged = await post("/oauth/authorize", { ...fields, csrf_token: "a.b", api_key: p.member, decision: "approve" }, {
        cookie: "oauth_csrf=a.b",
      });
      expect(forged.status).toBe(400);
      expect(forged.headers.get("location")).toBeNull();
      const denied = await consent(c.client_id, "", "", "deny");
      expect(denied.searchParams.get("error")).toBe("access_denied");
      expect(denied.searchParams.get("state")).toBe("st-1");
      const page = await t.call("GET", `/oauth/authorize?${authorizeQuery(c.client_id)}`);
      const cookie = page.headers.get("set-cookie")!.split(";")[0]!;
      const csrf = /name="csrf_token" value="([^"]+)"/.exec(page.body)![1]!;
      const badKey = await post(
        "/oauth/authorize",
        { ...fields, csrf_token: csrf, api_key: "wks_" + "a".repeat(40), decision: "approve" },
        { cookie },
      );
      expect(badKey.status).toBe(401);
      expect(badKey.body).toContain("not valid");
      const service = await post("/oauth/authorize", { ...fields, csrf_token: csrf, api_key: p.service, decision: "approve" }, { cookie });
      expect(service.status).toBe(403);
    });

    test("code flow end to end: consent, token, a call, refresh (rotation), revocation", async () => {
      const c = await register();
      const back = await consent(c.client_id, p.member);
      expect(back.origin + back.pathname).toBe(REDIRECT);
      expect(back.searchParams.get("state")).toBe("st-1");
      expect(back.searchParams.get("iss")).toBe("http://localhost");
      const code = back.searchParams.get("code")!;
      const wrong = await post("/oauth/token", {
        grant_type: "authorization_code",
        code,
        code_verifier: "y".repeat(50),
        redirect_uri: REDIRECT,
        client_id: c.client_id,
      });
      expect(wrong.status).toBe(400);
      expect(wrong.body.error).toBe("invalid_grant");

      const again = await consent(c.client_id, p.member);
      const tokens = await post("/oauth/token", {
        grant_type: "authorization_code",
        code: again.searchParams.get("code")!,
        code_verifier: VERIFIER,
        redirect_uri: REDIRECT,
        client_id: c.client_id,
      });
      expect(tokens.status).toBe(200);
      expect(tokens.headers.get("cache-control")).toBe("no-store");
      expect(tokens.headers.get("access-control-allow-origin")).toBe("*");
      expect(tokens.body).toMatchObject({ token_type: "Bearer", expires_in: 3600, scope: "work:read work:write" });
      const bearer = { authorization: `Bearer ${tokens.body.access_token}` };
      expect((await t.call("POST", "/workspaces/oauth-srv/topics", { headers: bearer, body: { title: "By an agent" } })).status).toBe(201);

      const refreshed = await post("/oauth/token", {
        grant_type: "refresh_token",
        refresh_token: tokens.body.refresh_token,
        client_id: c.client_id,
      });
      expect(refreshed.status).toBe(200);
      expect(refreshed.body.refresh_token).not.toBe(tokens.body.refresh_token);
      const newBearer = { authorization: `Bearer ${refreshed.body.access_token}` };
      expect((await t.call("GET", "/workspaces/oauth-srv/topics", { headers: newBearer })).status).toBe(200);

      const grants = await t.call("GET", "/workspaces/oauth-srv/oauth/grants", { key: p.member });
      expect(grants.status).toBe(200);
      expect(grants.body.items.some((g: any) => g.client_id === c.client_id)).toBe(true);

      expect((await post("/oauth/revoke", { token: "wkrt_unknown", client_id: c.client_id })).status).toBe(200);
      const revoked = await post("/oauth/revoke", { token: refreshed.body.refresh_token, client_id: c.client_id });
      expect(revoked.status).toBe(200);
      expect((await t.call("GET", "/workspaces/oauth-srv/topics", { headers: newBearer })).status).toBe(401);
    });

    test("a repeated parameter of the token or revocation endpoint is invalid_request; unrecognized ones are ignored, repeated or not", async () => {
      const pub = await register();
      const raw = (path: string, body: string) =>
        t.call("POST", path, { rawBody: body, headers: { "content-type": "application/x-www-form-urlencoded" } });
      const twice = await raw("/oauth/token", `grant_type=password&grant_type=password&client_id=${pub.client_id}`);
      expect(twice.status).toBe(400);
      expect(twice.body).toEqual({ error: "invalid_request", error_description: "Invalid request: parameter grant_type is repeated" });
      const extra = await raw("/oauth/token", `grant_type=password&client_id=${pub.client_id}&x=1&x=2&=3&=4`);
      expect(extra.status).toBe(400);
      expect(extra.body.error).toBe("unsupported_grant_type");
      for (const base of ["", "/workspaces/oauth-srv"]) {
        expect((await raw(`${base}/oauth/revoke`, `token=wkat_x&client_id=${pub.client_id}&token=wkat_y`)).body.error).toBe(
          "invalid_request",
        );
        expect((await raw(`${base}/oauth/revoke`, `token=wkat_x&client_id=${pub.client_id}&hint=a&hint=b`)).status).toBe(200);
      }
    });

    test("token errors: invalid_client 401 with Basic, unsupported_grant_type, a code redeems only at its issuer", async () => {
      const conf = await register({ token_endpoint_auth_method: "client_secret_basic" });
      const basic = `Basic ${btoa(`${conf.client_id}:wkcs_wrong`)}`;
      const res = await post("/oauth/token", { grant_type: "refresh_token", refresh_token: "wkrt_x" }, { authorization: basic });
      expect(res.status).toBe(401);
      expect(res.body.error).toBe("invalid_client");
      expect(res.headers.get("www-authenticate")).toStartWith("Basic");
      const pub = await register();
      const odd = await post("/oauth/token", { grant_type: "password", client_id: pub.client_id });
      expect(odd.status).toBe(400);
      expect(odd.body.error).toBe("unsupported_grant_type");
      // RFC 6749 §3.1/§3.2: a parameter it defines may not come twice; one it does not is ignored.
      const rawPost = (raw: string) =>
        t.call("POST", "/oauth/token", { rawBody: raw, headers: { "content-type": "application/x-www-form-urlencoded" } });
      const twice = await rawPost(`grant_type=password&grant_type=password&client_id=${pub.client_id}`);
      expect(twice.status).toBe(400);
      expect(twice.body).toMatchObject({ error: "invalid_request", error_description: expect.stringContaining("grant_type") });
      const unknownTwice = await rawPost(`x_extra=1&x_extra=2&grant_type=password&client_id=${pub.client_id}`);
      expect(unknownTwice.body.error).toBe("unsupported_grant_type");

      const back = await consent(pub.client_id, p.member, "/workspaces/oauth-srv");
      expect(back.searchParams.get("iss")).toBe("http://localhost/api/v1/workspaces/oauth-srv");
      const elsewhere = await post("/oauth/token", {
        grant_type: "authorization_code",
        code: back.searchParams.get("code")!,
        code_verifier: VERIFIER,
        redirect_uri: REDIRECT,
        client_id: pub.client_id,
      });
      expect(elsewhere.status).toBe(400);
      expect(elsewhere.body.error).toBe("invalid_grant");
    });

    test("the JSON decision: 201 redirect_to by API key; another workspace's key at a workspace mount is 404", async () => {
      const c = await register();
      const body = { ...Object.fromEntries(authorizeQuery(c.client_id)), decision: "approve" };
      const res = await t.call("POST", "/oauth/authorize", { key: p.owner, body });
      expect(res.status).toBe(201);
      expect(new URL(res.body.redirect_to).searchParams.get("code")).toStartWith("wkac_");
      const other = await t.bootstrap("oauth-srv-other");
      expect((await t.call("POST", "/workspaces/oauth-srv/oauth/authorize", { key: other.key, body })).status).toBe(404);
      const invalid = await t.call("POST", "/oauth/authorize", { key: p.owner, body: { ...body, code_challenge_method: "plain" } });
      expect(invalid.status).toBe(400);
      expect(invalid.body.error.code).toBe("VALIDATION_FAILED");
      expect((await t.call("POST", "/oauth/authorize", { key: p.service, body })).status).toBe(403);
    });

    test("grants: a member sees their own, revokes them, and the grant's tokens stop", async () => {
      const c = await register();
      const back = await consent(c.client_id, p.admin);
      const tokens = await post("/oauth/token", {
        grant_type: "authorization_code",
        code: back.searchParams.get("code")!,
        code_verifier: VERIFIER,
        redirect_uri: REDIRECT,
        client_id: c.client_id,
      });
      const bearer = { authorization: `Bearer ${tokens.body.access_token}` };
      const mine = await t.call("GET", "/workspaces/oauth-srv/oauth/grants", { key: p.admin });
      const grant = mine.body.items.find((g: any) => g.client_id === c.client_id);
      expect(grant).toBeDefined();
      const del = await t.call("DELETE", `/workspaces/oauth-srv/oauth/grants/${grant.id}`, { key: p.admin });
      expect(del.status).toBe(200);
      expect((await t.call("GET", "/workspaces/oauth-srv/topics", { headers: bearer })).status).toBe(401);
      expect((await t.call("DELETE", `/workspaces/oauth-srv/oauth/grants/${grant.id}`, { key: p.admin })).status).toBe(404);
    });
  });
}
