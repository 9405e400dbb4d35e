/**
 * A person approves an OAuth client on the consent page in a real browser: headless Chromium
 * (Debian's package) driven by playwright-core, against the real server process. The client's
 * redirect target is a tiny local HTTP server. Checked: the page's headers (CSP, framing, caching,
 * referrer), that no script runs on it (not even one injected into it), that another site cannot
 * frame it, and that filling in an API key and pressing Allow lands the browser on the redirect URI
 * with `code`, `state` and `iss`, a code the client can redeem. A screenshot of the page is kept in
 * test-artifacts/consent-page.png.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { type Browser, chromium } from "playwright-core";
import { s256Challenge } from "../../core/identity/pkce.ts";
import { type AppServer, bootstrapWorkspace, PROJECT_ROOT, startAppServer } from "../support/app-server.ts";
import { chromiumExecutable } from "../support/chromium.ts";
import { allowAndRedeem } from "../support/consent-browser.ts";

const ARTIFACTS = join(PROJECT_ROOT, "test-artifacts");
const SCREENSHOT = join(ARTIFACTS, "consent-page.png");
const VERIFIER = "consent-page-verifier-".padEnd(64, "x");
const STATE = "state-from-the-client-42";

// Found (or installed with apt) at load, not in a hook: an install takes longer than a hook may.
const executablePath = await chromiumExecutable();

describe("consent page in a browser", () => {
  let server: AppServer;
  let browser: Browser;
  let apiKey: string;
  /** The client's side: its redirect target, and a page of its own that tries to frame the consent page. */
  let client: ReturnType<typeof Bun.serve>;
  const callbacks: URL[] = [];
  let clientId: string;
  let redirectUri: string;
  let consentUrl: string;

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startAppServer({ name: "consent-e2e", env: { LOG_LEVEL: "warn" } }),
      chromium.launch({ executablePath, headless: true }),
    ]);
    ({ apiKey } = await bootstrapWorkspace(server.origin, "consent-e2e"));
    client = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch(request) {
        const url = new URL(request.url);
        const html = (body: string) =>
          new Response(`<!doctype html><html><body>${body}</body></html>`, {
            headers: { "content-type": "text/html; charset=utf-8" },
          });
        if (url.pathname === "/callback") {
          callbacks.push(url);
          return html("<h1 id=done>Connected</h1>");
        }
        if (url.pathname === "/frame") {
          return html(`<h1>A site framing the consent page</h1><iframe id=victim src="${consentUrl}"></iframe>`);
        }
        return new Response("not found", { status: 404 });
      },
    });
    redirectUri = `http://127.0.0.1:${client.port}/callback`;
    const registered = await fetch(`${server.origin}/api/v1/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        client_name: "Browser Test Agent",
        client_uri: "https://agent.example",
        redirect_uris: [redirectUri],
        token_endpoint_auth_method: "none",
      }),
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
    await server?.stop();
  });

  test("the page: its headers, no script, what it asks; Allow with an API key lands on the redirect URI with code, state and iss", async () => {
    const page = await browser.newPage({ viewport: { width: 900, height: 900 } });
    // Playwright's init scripts are not subject to the page's CSP: this listener sees every violation.
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
      document.addEventListener("securitypolicyviolation", (e) => seen.push(e.violatedDirective));
    });
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    const response = await page.goto(consentUrl);
    expect(response?.status()).toBe(200);
    const headers = response!.headers();
    const csp = Object.fromEntries(
      headers["content-security-policy"]!.split(";").map((d) => {
        const [name, ...values] = d.trim().split(/\s+/);
        return [name, values.join(" ")];
      }),
    );
    expect(csp["default-src"]).toBe("'none'");
    expect(csp["script-src"]).toBeUndefined(); // default-src 'none' rules: no script at all
    expect(csp["frame-ancestors"]).toBe("'none'");
    expect(csp["form-action"]).toBe(`http://127.0.0.1:${client.port} 'self'`);
    expect(headers["x-frame-options"]).toBe("DENY");
    expect(headers["cache-control"]).toBe("no-store");
    expect(headers["referrer-policy"]).toBe("no-referrer");

    // What the person reads: who asks, for what, and where they will be sent.
    expect(await page.title()).toBe("Authorize Browser Test Agent");
    const text = await page.locator("main").innerText();
    expect(text).toContain("Browser Test Agent asks to act for you");
    expect(text).toContain("work:read");
    expect(text).toContain("work:write");
    expect(text).toContain(`http://127.0.0.1:${client.port}`);

    // No script on the page, and none can be added to it: an injected one is refused by the CSP.
    expect(await page.evaluate(() => document.scripts.length)).toBe(0);
    expect(await page.locator("[onclick],[onload],[onerror],[onsubmit]").count()).toBe(0);
    await page.evaluate(() => {
      const s = document.createElement("script");
      s.textContent = "window.__ran = true";
      document.body.append(s);
    });
    expect(await page.evaluate(() => (window as unknown as { __ran?: boolean }).__ran)).toBeUndefined();
    expect(await page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations)).toContain("script-src-elem");

    await mkdir(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    console.log(`consent page screenshot: ${SCREENSHOT}`);

    // The person enters an API key and allows: the form posts, the 303 takes the browser to the client.
    await page.locator("#api_key").fill(apiKey);
    // The code is real: the client redeems it.
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
    await page.close();
  });

  test("another site cannot frame it: the frame shows no consent form", async () => {
    const before = callbacks.length;
    const page = await browser.newPage({ viewport: { width: 900, height: 700 } });
    const response = await page.goto(`http://127.0.0.1:${client.port}/frame`);
    expect(response?.status()).toBe(200);
    // `goto` waited for the load event, which waits for the frame: its navigation was answered,
    // then refused by the browser (frame-ancestors 'none', X-Frame-Options: DENY).
    const child = page.frames().find((f) => f !== page.mainFrame())!;
    expect(child).toBeDefined();
    // Chromium replaces a refused frame with its error page: no form, no API key field, nothing of the consent page.
    const inFrame = await child.evaluate(() => ({ forms: document.forms.length, key: document.getElementById("api_key") !== null }))
      .catch(() => ({ forms: 0, key: false }));
    expect(inFrame).toEqual({ forms: 0, key: false });
    expect(child.url()).toBe("chrome-error://chromewebdata/");
    expect(callbacks).toHaveLength(before); // nothing reached the client
    await page.close();
  });
});
