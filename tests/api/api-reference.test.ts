/**
 * The interactive reference's page and scripts over HTTP: the bundle is the one the lockfile pins,
 * byte for byte, served as JavaScript, cached for good under a versioned name, gzipped for clients
 * that take it. (tests/e2e/api-reference.test.ts opens the page in a browser.)
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { PROJECT_ROOT } from "../support/app-server.ts";
import { makeTestApp, type TestApp } from "../support/test-app.ts";

const PINNED: string =
  (await Bun.file(join(PROJECT_ROOT, "package-lock.json")).json()).packages["node_modules/@scalar/api-reference"].version;
const INSTALLED = await Bun.file(join(PROJECT_ROOT, "node_modules/@scalar/api-reference/dist/browser/standalone.js")).bytes();

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});

const get = (path: string, headers: Record<string, string> = {}) => t.app.handle(new Request(`http://localhost${path}`, { headers }));

/** The page's script URLs, resolved against the page's address. */
async function pageScripts(): Promise<string[]> {
  const html = await (await get("/api/v1/docs")).text();
  return [...html.matchAll(/<script src="([^"]+)"><\/script>/g)].map((m) => new URL(m[1]!, "http://localhost/api/v1/docs").pathname);
}

describe("API reference", () => {
  test("the page loads two scripts of this origin, the first the pinned Scalar bundle, and no inline script", async () => {
    const page = await get("/api/v1/docs");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.headers.get("cache-control")).toBe("no-cache");
    expect(page.headers.get("content-security-policy")).toContain("script-src 'self';");
    expect(page.headers.get("content-security-policy")).not.toContain("unsafe-eval");
    const html = await page.text();
    expect(html.match(/<script/g)).toHaveLength(2);
    const scripts = await pageScripts();
    expect(scripts[0]).toBe(`/api/v1/docs/assets/scalar-api-reference-${PINNED}.js`);
    expect(scripts[1]).toMatch(/^\/api\/v1\/docs\/assets\/init-[0-9a-f]{16}\.js$/);
  });

  test("the bundle is the installed package's file, as JavaScript, immutable, gzipped when accepted", async () => {
    const [bundle] = await pageScripts();
    const plain = await get(bundle!);
    expect(plain.status).toBe(200);
    expect(plain.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(plain.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(plain.headers.get("vary")).toBe("accept-encoding");
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(plain.headers.get("x-content-type-options")).toBe("nosniff");
    expect(Buffer.from(await plain.arrayBuffer()).equals(Buffer.from(INSTALLED))).toBe(true);

    const zipped = await get(bundle!, { "accept-encoding": "gzip, deflate, br" });
    expect(zipped.headers.get("content-encoding")).toBe("gzip");
    const bytes = new Uint8Array(await zipped.arrayBuffer());
    expect(bytes.length).toBeLessThan(INSTALLED.length / 2);
    expect(Buffer.from(Bun.gunzipSync(bytes)).equals(Buffer.from(INSTALLED))).toBe(true);

    const refused = await get(bundle!, { "accept-encoding": "gzip;q=0, br" });
    expect(refused.headers.get("content-encoding")).toBeNull();
  });

  test("the mounting script is JavaScript, immutable, and names this server's document", async () => {
    const [, init] = await pageScripts();
    const res = await get(init!);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const script = await res.text();
    expect(script).toContain("Scalar.createApiReference(");
    expect(script).toContain('url: "openapi.json"');
  });

  test("another version's bundle is a 404, and none of these routes is in the OpenAPI document", async () => {
    const missing = await t.call("GET", "/docs/assets/scalar-api-reference-0.0.1.js");
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe("NOT_FOUND");
    const spec = await t.call("GET", "/openapi.json");
    expect(Object.keys(spec.body.paths).filter((p) => p.includes("/docs"))).toEqual([]);
  });
});
