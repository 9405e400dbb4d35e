/**
 * A person signs in to the dashboard and approves an OAuth client as themselves, in a real browser:
 * headless Chromium (Debian's package) driven by playwright-core, against the real server process
 * configured with a local OpenID Connect provider (`oidc-provider`, its development login and
 * consent pages). The client asks for consent; the signed-out person is sent to
 * `GET /api/v1/auth/login`, signs in at the provider, comes back through `/auth/callback` with the
 * dashboard session cookie set, is shown the consent page signed in (no API key asked), and
 * pressing Allow lands the browser on the client's redirect URI with `code`, `state` and `iss`.
 * A screenshot of the signed-in consent page is kept in test-artifacts/sign-in-consent-page.png.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { type Browser, chromium } from "playwright-core";
import { s256Challenge } from "../../core/identity/pkce.ts";
import { type AppServer, bootstrapWorkspace, PROJECT_ROOT, startAppServer } from "../support/app-server.ts";
import { chromiumExecutable } from "../support/chromium.ts";
import { allowAndRedeem } from "../support/consent-browser.ts";
import { freePort } from "../support/net.ts";
import { startOidcProvider, TEST_OIDC_CLIENT, type TestOidcProvider } from "../support/oidc-provider.ts";

const ARTIFACTS = join(PROJECT_ROOT, "test-artifacts");
const SCREENSHOT = join(ARTIFACTS, "sign-in-consent-page.png");
const VERIFIER = "sign-in-verifier-".padEnd(64, "y");
const STATE = "state-of-the-signed-in-flow-7";
const EMAIL = "alice-browser@example.com";

// Found (or installed with apt) at load, not in a hook: an install takes longer than a hook may.
const executablePath = await chromiumExecutable();

describe("dashboard sign-in and consent as the signed-in person, in a browser", () => {
  let server: AppServer;
  let provider: TestOidcProvider;
  let browser: Browser;
  let client: ReturnType<typeof Bun.serve>;
  const callbacks: URL[] = [];
  let clientId: string;
  let redirectUri: string;
  let consentUrl: string;

  beforeAll(async () => {
    // The server names the provider's issuer at start (discovery waits for the first sign-in), and
    // the provider names the server's callback: the provider's port is chosen first.
    const providerPort = freePort();
    [server, browser] = await Promise.all([
      startAppServer({
        name: "sign-in-e2e",
        env: {
          LOG_LEVEL: "warn",
          OIDC_ISSUER: `http://127.0.0.1:${providerPort}`,
          OIDC_CLIENT_ID: TEST_OIDC_CLIENT.clientId,
          OIDC_CLIENT_SECRET: TEST_OIDC_CLIENT.clientSecret,
        },
      }),
      chromium.launch({ executablePath, headless: true }),
    ]);
    provider = await startOidcProvider({
      port: providerPort,
      redirectUris: [`${server.origin}/api/v1/auth/callback`],
      accounts: { alice: { email: EMAIL, name: "Alice Browser" } },
    });
    // Sign-in creates no people: the person exists (a workspace's owner) before signing in.
    await bootstrapWorkspace(server.origin, "sign-in-e2e", EMAIL);
    client = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch(request) {
        const url = new URL(request.url);
        if (url.pathname !== "/callback") return new Response("not found", { status: 404 });
        callbacks.push(url);
        return new Response("<!doctype html><html><body><h1 id=done>Connected</h1></body></html>", {
          headers: { "content-type": "text/html; charset=utf-8" },
        });
      },
    });
    redirectUri = `http://127.0.0.1:${client.port}/callback`;
    const registered = await fetch(`${server.origin}/api/v1/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ client_name: "Signed-in Agent", redirect_uris: [redirectUri], token_endpoint_auth_method: "none" }),
    });
    expect(registered.status).toBe(201);
    clientId = (await registered.json()).client_id;
    consentUrl = `${server.origin}/api/v1/oauth/authorize?${new URLSearchParams({
      client_id: clientId,
      redirect_uri: redirectUri,
      response_type: "code",
      scope: "work:read work:write",
      state: STATE,
      code_challenge: s256Challenge(VERIFIER),
      code_challenge_method: "S256",
    })}`;
  });

  afterAll(async () => {
    await browser?.close();
    await client?.stop(true);
    await provider?.stop();
    await server?.stop();
  });

  test("consent → sign in at the provider → session cookie → consent as the signed-in person → code, state and iss", async () => {
    const context = await browser.newContext({ viewport: { width: 900, height: 900 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));

    // Signed out, the consent page sends the browser to sign in, which sends it to the provider.
    await page.goto(consentUrl);
    expect(new URL(page.url()).origin).toBe(provider.issuer);
    await page.locator('input[name="login"]').fill("alice");
    await page.locator('input[name="password"]').fill("any password");
    await Promise.all([page.waitForURL((url) => url.origin === provider.issuer), page.getByRole("button", { name: "Sign-in" }).click()]);
    // The provider's own consent for the dashboard (openid email profile), then back through our callback.
    await Promise.all([
      page.waitForURL((url) => url.href.startsWith(`${server.origin}/api/v1/oauth/authorize?`)),
      page.getByRole("button", { name: "Continue" }).click(),
    ]);

    // The callback left the dashboard session: HttpOnly, SameSite=Lax, the whole site, not Secure on http.
    const session = (await context.cookies(server.origin)).find((c) => c.name === "wks_session");
    expect(session).toBeDefined();
    expect(session!.httpOnly).toBe(true);
    expect(session!.sameSite).toBe("Lax");
    expect(session!.path).toBe("/");
    expect(session!.secure).toBe(false);
    expect(await page.evaluate(() => document.cookie)).not.toContain("wks_session");
    // The same browser is signed in to the API: /me over the session.
    const me = await context.request.get(`${server.origin}/api/v1/me`);
    expect(me.status()).toBe(200);
    const meBody = await me.json();
    expect(meBody.principal.via).toBe("session");
    expect(meBody.identity.email).toBe(EMAIL);

    // The consent page, signed in: who, the workspace to choose, and no API key field.
    expect(await page.title()).toBe("Authorize Signed-in Agent");
    const text = await page.locator("main").innerText();
    expect(text).toContain(`Signed in as ${EMAIL}`);
    expect(text).toContain("Signed-in Agent asks to act for you");
    expect(await page.locator("#api_key").count()).toBe(0);
    expect(await page.locator("#workspace option").allTextContents()).toEqual(["sign-in-e2e (sign-in-e2e)"]);
    expect(await page.evaluate(() => document.scripts.length)).toBe(0);
    await mkdir(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    console.log(`signed-in consent page screenshot: ${SCREENSHOT}`);

    // Allow: the form posts with the session, the 303 takes the browser to the client. The page's
    // `Referrer-Policy: no-referrer` makes Chromium send this post with `Origin: null`: the session-bound
    // CSRF token is what lets it through (ADR 044); before, the signed-in form post was refused here.
    // The code is the signed-in person's: the client redeems it and acts as them in the workspace chosen.
    const tokens = await allowAndRedeem({
      page,
      origin: server.origin,
      redirectUri,
      clientId,
      state: STATE,
      verifier: VERIFIER,
      callbacks,
      errors,
    });
    expect(tokens.scope).toBe("work:read work:write");
    const asClient = await fetch(`${server.origin}/api/v1/me`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    const acting = await asClient.json();
    expect(acting.identity.email).toBe(EMAIL);
    expect(acting.workspace.slug).toBe("sign-in-e2e");
    expect(acting.principal.via).toBe("oauth");
    await context.close();
  });
});
