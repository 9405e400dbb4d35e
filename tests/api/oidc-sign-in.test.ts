import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createOidcProvider } from "../../adapters/oidc/oauth4webapi-provider.ts";
import { s256Challenge } from "../../core/identity/pkce.ts";
import { CookieJar, signInAtProvider, startOidcProvider, type TestOidcProvider } from "../support/oidc-provider.ts";
import { makeTestApp, type TestApp } from "../support/test-app.ts";

const CALLBACK = "http://localhost/api/v1/auth/callback";
const ORIGIN = "http://localhost";

/**
 * OpenID Connect sign-in against a real provider (`oidc-provider`, its development login and
 * consent forms): login → provider → callback → session cookie → /me → a workspace route → logout.
 */
describe("OpenID Connect sign-in against oidc-provider", () => {
  let op: TestOidcProvider;
  let t: TestApp;
  /** A request to the app as the browser with this jar. */
  const browse = async (jar: CookieJar, method: string, url: string, headers: Record<string, string> = {}, body?: string) => {
    const res = await t.app.handle(new Request(new URL(url, ORIGIN), { method, headers: { cookie: jar.header(), ...headers }, body }));
    jar.take(res.headers);
    return res;
  };
  /** login → the provider's forms → the callback: the callback's answer. */
  const signIn = async (account: string, returnTo: string, jar = new CookieJar()) => {
    const login = await browse(jar, "GET", `/api/v1/auth/login?return_to=${encodeURIComponent(returnTo)}`);
    expect(login.status).toBe(303);
    const callback = await signInAtProvider(login.headers.get("location")!, account);
    expect(callback.href.startsWith(CALLBACK)).toBe(true);
    const done = await browse(jar, "GET", callback.href);
    return { jar, done };
  };

  beforeAll(async () => {
    op = await startOidcProvider({
      redirectUris: [CALLBACK],
      accounts: {
        alice: { email: "alice-oidc@example.com", name: "Alice" },
        stranger: { email: "nobody-here@example.com" },
        unverified: { email: "bob-oidc@example.com", email_verified: false },
      },
    });
    t = await makeTestApp(undefined, {
      oidc: createOidcProvider({ issuer: op.issuer, clientId: op.clientId, clientSecret: op.clientSecret }),
    });
    await t.bootstrap("oidc-a", "alice-oidc@example.com");
    await t.bootstrap("oidc-b", "bob-oidc@example.com");
  });
  afterAll(async () => {
    await op?.stop();
  });

  test("login redirects to the provider with the code flow, PKCE S256, state and nonce, in a signed cookie", async () => {
    const jar = new CookieJar();
    const res = await browse(jar, "GET", "/api/v1/auth/login");
    expect(res.status).toBe(303);
    const to = new URL(res.headers.get("location")!);
    expect(to.origin).toBe(op.issuer);
    expect(to.searchParams.get("response_type")).toBe("code");
    expect(to.searchParams.get("client_id")).toBe(op.clientId);
    expect(to.searchParams.get("redirect_uri")).toBe(CALLBACK);
    expect(to.searchParams.get("code_challenge_method")).toBe("S256");
    expect(to.searchParams.get("state")?.length).toBeGreaterThan(20);
    expect(to.searchParams.get("nonce")?.length).toBeGreaterThan(20);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith("wks_oidc="))!;
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Lax");
    expect(cookie).toContain("Path=/api/v1/auth");
    // A dashboard navigating itself asks for JSON: the same URL, the same cookie.
    const json = await browse(new CookieJar(), "GET", "/api/v1/auth/login", { accept: "application/json" });
    expect(json.status).toBe(200);
    expect(new URL((await json.json()).authorization_url).origin).toBe(op.issuer);
    expect(json.headers.getSetCookie().some((c) => c.startsWith("wks_oidc="))).toBe(true);
  });

  test("without OIDC settings, /auth/login and /auth/callback are 404", async () => {
    const bare = await makeTestApp();
    expect((await bare.call("GET", "/auth/login")).status).toBe(404);
    expect((await bare.call("GET", "/auth/callback?code=x&state=y")).status).toBe(404);
  });

  test("the whole flow: session cookie, /me over the session, a workspace route, logout", async () => {
    const { jar, done } = await signIn("alice", "/api/v1/me?x=1");
    expect(done.status).toBe(303);
    expect(done.headers.get("location")).toBe("/api/v1/me?x=1");
    const cookie = done.headers.getSetCookie().find((c) => c.startsWith("wks_session="))!;
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Lax");
    expect(cookie).toContain("Path=/");
    expect(cookie).not.toContain("Secure");
    expect(jar.cookies.has("wks_oidc")).toBe(false);

    const me = await browse(jar, "GET", "/api/v1/me");
    expect(me.status).toBe(200);
    const body = await me.json();
    expect(body.principal.via).toBe("session");
    expect(body.workspace).toBeNull();
    expect(body.identity.email).toBe("alice-oidc@example.com");
    expect(body.memberships.map((m: any) => m.workspace.slug)).toEqual(["oidc-a"]);

    expect((await browse(jar, "GET", "/api/v1/workspaces/oidc-a")).status).toBe(200);
    expect((await browse(jar, "GET", "/api/v1/workspaces/oidc-b")).status).toBe(404);

    // Signing in again with the same account finds the link (issuer + subject), not the e-mail.
    const again = await signIn("alice", "/");
    expect(again.done.status).toBe(303);

    const crossSite = await browse(jar, "POST", "/api/v1/auth/logout", { origin: "https://evil.example" });
    expect(crossSite.status).toBe(403);
    expect((await browse(jar, "GET", "/api/v1/me")).status).toBe(200);
    const out = await browse(jar, "POST", "/api/v1/auth/logout", { origin: ORIGIN });
    expect(out.status).toBe(201);
    expect(out.headers.getSetCookie().some((c) => c.startsWith("wks_session=;") && c.includes("Max-Age=0"))).toBe(true);
    // The session is gone from the store, not only from the browser.
    const stale = await t.app.handle(new Request(`${ORIGIN}/api/v1/me`, { headers: { cookie: cookie.split(";")[0]! } }));
    expect(stale.status).toBe(401);
  });

  test("return_to of another origin, or scheme-relative, ends the sign-in at /", async () => {
    for (const bad of ["https://evil.example/x", "//evil.example/x", "/\\evil.example", "javascript:alert(1)"]) {
      const { done } = await signIn("alice", bad);
      expect(done.status).toBe(303);
      expect(done.headers.get("location")).toBe("/");
    }
    const { done } = await signIn("alice", `${ORIGIN}/api/v1/docs`);
    expect(done.headers.get("location")).toBe("/api/v1/docs");
  });

  test("an unknown person or an unverified e-mail gets no session (403)", async () => {
    for (const account of ["stranger", "unverified"]) {
      const { done } = await signIn(account, "/");
      expect(done.status).toBe(403);
      expect(done.headers.getSetCookie().some((c) => c.startsWith("wks_session=") && !c.startsWith("wks_session=;"))).toBe(false);
    }
  });

  test("a callback without the sign-in cookie, or with another state, is refused (400)", async () => {
    const jar = new CookieJar();
    const login = await browse(jar, "GET", "/api/v1/auth/login");
    const callback = await signInAtProvider(login.headers.get("location")!, "alice");
    const noCookie = await t.app.handle(new Request(callback.href));
    expect(noCookie.status).toBe(400);
    const forged = new URL(callback);
    forged.searchParams.set("state", "another-state");
    const wrongState = await browse(jar, "GET", forged.href);
    expect(wrongState.status).toBe(400);
  });

  test("the consent page sends a signed-out user to sign in, then decides as the session's person", async () => {
    const reg = await t.call("POST", "/oauth/register", {
      body: { redirect_uris: ["http://127.0.0.1:9/cb"], token_endpoint_auth_method: "none", client_name: "Agent" },
    });
    expect(reg.status).toBe(201);
    const query = new URLSearchParams({
      client_id: reg.body.client_id,
      redirect_uri: "http://127.0.0.1:9/cb",
      response_type: "code",
      scope: "work:read",
      state: "s1",
      code_challenge: s256Challenge("v".repeat(50)),
      code_challenge_method: "S256",
    });
    const consentPath = `/api/v1/oauth/authorize?${query}`;
    const jar = new CookieJar();
    const out = await browse(jar, "GET", consentPath);
    expect(out.status).toBe(303);
    const login = new URL(out.headers.get("location")!, ORIGIN);
    expect(login.pathname).toBe("/api/v1/auth/login");
    expect(login.searchParams.get("return_to")).toBe(consentPath);

    const { done } = await signIn("alice", login.searchParams.get("return_to")!, jar);
    expect(done.headers.get("location")).toBe(consentPath);
    const page = await browse(jar, "GET", consentPath);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("alice-oidc@example.com");
    expect(html).not.toContain('name="api_key"');
    expect(html).toContain('<option value="oidc-a">');
    const csrf = /name="csrf_token" value="([^"]+)"/.exec(html)![1]!;
    const form = new URLSearchParams({ ...Object.fromEntries(query), csrf_token: csrf, workspace: "oidc-a", decision: "approve" });
    const headers = { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN };
    const crossSite = await browse(jar, "POST", "/api/v1/oauth/authorize", { ...headers, origin: "https://evil.example" }, form.toString());
    expect(crossSite.status).toBe(403);
    const other = new URLSearchParams({ ...Object.fromEntries(form), workspace: "oidc-b" });
    const notMine = await browse(jar, "POST", "/api/v1/oauth/authorize", headers, other.toString());
    expect(notMine.status).toBe(404);
    // The page shown again carries a fresh CSRF token (and cookie).
    form.set("csrf_token", /name="csrf_token" value="([^"]+)"/.exec(await notMine.text())![1]!);
    const decided = await browse(jar, "POST", "/api/v1/oauth/authorize", headers, form.toString());
    expect(decided.status).toBe(303);
    const back = new URL(decided.headers.get("location")!);
    expect(back.searchParams.get("code")).toMatch(/^wkac_/);
    expect(back.searchParams.get("state")).toBe("s1");
  });
});
