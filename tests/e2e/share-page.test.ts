/**
 * A reader opens a public share link in a real browser: headless Chromium (Debian's package)
 * driven by playwright-core, against the real server process. The topic's body is hostile: the
 * test checks that none of its script runs, even when the reader clicks around, and keeps a
 * screenshot of what the reader saw in test-artifacts/share-page.png.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { type Browser, chromium } from "playwright-core";
import { type AppServer, bootstrapWorkspace, PROJECT_ROOT, startAppServer } from "../support/app-server.ts";
import { chromiumExecutable } from "../support/chromium.ts";

const ARTIFACTS = join(PROJECT_ROOT, "test-artifacts");
const SCREENSHOT = join(ARTIFACTS, "share-page.png");

const TITLE = "Deploying the billing service";
const HOSTILE_BODY = [
  "# Runbook",
  "",
  "Steps every on-call engineer follows:",
  "",
  "- drain the queue",
  "- deploy with `make release`",
  "",
  "<script>window.__pwned=1</script>",
  "",
  '<img src=x onerror="window.__pwned=1">',
  "",
  "[click me](javascript:window.__pwned=1)",
  "",
  '<a href="javascript:window.__pwned=1" id="evil">evil anchor</a>',
  "",
  '<svg onload="window.__pwned=1"></svg>',
].join("\n");

// Found (or installed with apt) at load, not in a hook: an install takes longer than a hook may.
// A machine without Chromium fails here, loudly, never skips.
const executablePath = await chromiumExecutable();

describe("share page in a browser", () => {
  let server: AppServer;
  let browser: Browser;
  let api: (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>;

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startAppServer({ name: "share-e2e", env: { LOG_LEVEL: "warn" } }),
      chromium.launch({ executablePath, headless: true }),
    ]);
    const { slug, apiKey } = await bootstrapWorkspace(server.origin, "share-e2e");
    api = async (method, path, body) => {
      const res = await fetch(`${server.origin}/api/v1/workspaces/${slug}${path}`, {
        method,
        headers: { "x-api-key": apiKey, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    };
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  test("a reader sees the rendered topic and its trust verdict; no script from the content runs; revoked, it is 404", async () => {
    const created = await api("POST", "/topics", { title: TITLE, body: HOSTILE_BODY, tags: ["billing", "runbook"] });
    expect(created.status).toBe(201);
    const slug = created.body.slug;
    expect((await api("POST", `/topics/${slug}/propose`)).status).toBe(201);
    expect((await api("POST", `/topics/${slug}/approve`)).status).toBe(201);
    const shared = await api("POST", `/topics/${slug}/share`);
    expect(shared.status).toBe(201);
    const url: string = shared.body.url;
    expect(url).toBe(`${server.origin}/s/${shared.body.token}`);

    const page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
    const dialogs: string[] = [];
    page.on("dialog", (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    const response = await page.goto(url);
    expect(response?.status()).toBe(200);
    expect(response?.headers()["content-security-policy"]).toContain("default-src 'none'");

    // What the reader sees.
    expect(await page.title()).toBe(TITLE);
    expect(await page.locator("#topic-title").textContent()).toBe(TITLE);
    expect(await page.locator("#trust").textContent()).toBe("Reviewed");
    expect(await page.locator("article h1").textContent()).toBe("Runbook");
    expect(await page.locator("article li").allTextContents()).toEqual(["drain the queue", "deploy with make release"]);
    expect(await page.locator(".tags li").allTextContents()).toEqual(["billing", "runbook"]);
    const text = await page.locator("article").innerText();
    // The hostile markup is shown as text, not run.
    expect(text).toContain("<script>window.__pwned=1</script>");
    expect(text).toContain('<img src=x onerror="window.__pwned=1">');
    expect(text).toContain("[click me](javascript:window.__pwned=1)");

    // Nothing the content wrote became script, a handler or a javascript: link.
    const dom = await page.evaluate(() => ({
      scripts: document.scripts.length,
      handlers: document.querySelectorAll("[onerror],[onload],[onclick]").length,
      jsLinks: [...document.querySelectorAll("a")].filter((a) => a.href.toLowerCase().startsWith("javascript:")).length,
      images: document.images.length,
      evil: document.getElementById("evil") !== null,
    }));
    expect(dom).toEqual({ scripts: 0, handlers: 0, jsLinks: 0, images: 0, evil: false });

    // The reader clicks what looks like a link, and the anchor text: still nothing runs.
    await page.getByText("[click me](javascript:window.__pwned=1)").click();
    await page.getByText("evil anchor").click();
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(dialogs).toEqual([]);
    expect(page.url()).toBe(url);

    await mkdir(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    console.log(`share page screenshot: ${SCREENSHOT}`);

    // The Markdown source link next to it.
    const raw = await page.request.get(`${url}/raw`);
    expect(raw.headers()["content-type"]).toBe("text/markdown; charset=utf-8");
    expect(await raw.text()).toBe(HOSTILE_BODY);

    // Revoked: the very next visit is a 404.
    expect((await api("DELETE", `/topics/${slug}/share`)).status).toBe(200);
    const gone = await page.goto(url);
    expect(gone?.status()).toBe(404);
    expect(await page.locator("h1").textContent()).toBe("Link not found");
    await page.close();
  });
});
