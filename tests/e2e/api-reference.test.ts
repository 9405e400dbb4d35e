/**
 * A developer opens the interactive API reference on a machine without internet: headless
 * Chromium (Debian's package) driven by playwright-core, against the real server process, with
 * every request that leaves loopback aborted and recorded. The page must need none of them, run
 * under its Content-Security-Policy without a violation, and list the API's operations. A
 * screenshot of what the developer saw is kept in test-artifacts/api-reference.png.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { type Browser, chromium } from "playwright-core";
import { type AppServer, PROJECT_ROOT, startAppServer } from "../support/app-server.ts";
import { chromiumExecutable } from "../support/chromium.ts";

const ARTIFACTS = join(PROJECT_ROOT, "test-artifacts");
const SCREENSHOT = join(ARTIFACTS, "api-reference.png");
const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);

// Found (or installed with apt) at load, not in a hook: an install takes longer than a hook may.
const executablePath = await chromiumExecutable();

describe("API reference in a browser, offline", () => {
  let server: AppServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startAppServer({ name: "docs-e2e", env: { LOG_LEVEL: "warn" } }),
      chromium.launch({ executablePath, headless: true }),
    ]);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  test("lists the operations with no request beyond loopback, under a policy that allows only this origin's scripts", async () => {
    // What the reference should show: an operation of the topics group, as the document names it.
    const spec = await (await fetch(`${server.origin}/api/v1/openapi.json`)).json();
    const propose = spec.paths["/api/v1/workspaces/{slug}/topics/{topic}/propose"].post.summary as string;
    expect(propose.length).toBeGreaterThan(0);

    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const leftLoopback: string[] = [];
    await page.route("**/*", (route) => {
      const url = route.request().url();
      if (LOOPBACK.has(new URL(url).hostname)) return route.continue();
      leftLoopback.push(url);
      return route.abort("internetdisconnected");
    });
    // Playwright's init scripts are not subject to the page's CSP: this listener sees every violation.
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
      document.addEventListener("securitypolicyviolation", (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
    });
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    // No "response" listener: with routing on, playwright-core (under bun) now and then receives a
    // response event for a request it has not bound yet and throws between tests. The scripts the
    // page loaded are read from its own resource timing instead, their headers fetched below.

    const response = await page.goto(`${server.origin}/api/v1/docs`);
    expect(response?.status()).toBe(200);
    const headers = response!.headers();
    expect(headers["content-type"]).toBe("text/html; charset=utf-8");
    const csp = Object.fromEntries(
      headers["content-security-policy"]!.split(";").map((d) => {
        const [name, ...values] = d.trim().split(/\s+/);
        return [name, values.join(" ")];
      }),
    );
    expect(csp["default-src"]).toBe("'none'");
    expect(csp["script-src"]).toBe("'self'");
    expect(csp["connect-src"]).toBe("'self'");
    expect(csp["frame-ancestors"]).toBe("'none'");
    expect(headers["x-content-type-options"]).toBe("nosniff");

    // The developer sees the API's title, the groups, and opens one to find its operations.
    await expect(page.getByRole("heading", { name: spec.info.title }).waitFor({ timeout: 30_000 })).resolves.toBeUndefined();
    const topics = page.locator("nav, aside").getByText("topics", { exact: true }).first();
    await topics.click();
    await page.getByText(propose, { exact: true }).first().click();
    // The operation's own section: its heading and the path it documents.
    const section = page.locator("section", { has: page.getByRole("heading", { name: propose, exact: true }) }).last();
    await section.waitFor({ timeout: 30_000 });
    expect(await section.innerText()).toContain("/api/v1/workspaces/{slug}/topics/{topic}/propose");

    // Every script came from this server, from the installed package, cached for good.
    const scripts: string[] = await page.evaluate(() =>
      performance.getEntriesByType("resource").filter((e) => (e as PerformanceResourceTiming).initiatorType === "script").map((e) => e.name)
    );
    expect(scripts.map((u) => new URL(u).origin)).toEqual([server.origin, server.origin]);
    const bundle = scripts.find((u) => /\/docs\/assets\/scalar-api-reference-\d+\.\d+\.\d+\.js$/.test(u));
    expect(bundle).toBeDefined();
    const fetched = await fetch(bundle!, { headers: { "accept-encoding": "gzip" }, decompress: false });
    expect(fetched.status).toBe(200);
    expect(fetched.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(fetched.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(fetched.headers.get("content-encoding")).toBe("gzip");

    expect(leftLoopback).toEqual([]);
    // One refusal is expected and wanted: the bundle's schema library (Zod) probes whether it may
    // compile validators with `Function("")` and, refused (no 'unsafe-eval'), validates without.
    const violations: string[] = await page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations);
    expect(violations.filter((v) => v !== "script-src eval")).toEqual([]);
    expect(errors).toEqual([]);

    await mkdir(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: SCREENSHOT });
    console.log(`API reference screenshot: ${SCREENSHOT}`);
    await page.close();
  });
});
