import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeTestApp, type TestApp } from "../support/test-app.ts";

let t: TestApp;
let custom: TestApp;
let dir: string;

const post = (fm: string, body = "Body.") => `---\n${fm}\n---\n${body}\n`;

beforeAll(async () => {
  t = await makeTestApp();
  dir = mkdtempSync(join(tmpdir(), "blog-"));
  writeFileSync(join(dir, "a.md"), post("title: A\npublished_at: 2026-01-02\ntags: [x, y]\nauthor: Ana"));
  writeFileSync(join(dir, "b.md"), post("title: B\nslug: bee\npublished_at: 2026-01-02T00:00:00Z\ntags: [y]"));
  writeFileSync(
    join(dir, "c.md"),
    post(
      "title: C\npublished_at: 2026-03-01T08:00:00+02:00\nsummary: Sea",
      "# Hi\n\n<script>alert(1)</script>\n\n[x](javascript:alert(1)) [ok](https://example.com)",
    ),
  );
  writeFileSync(join(dir, "draft.md"), post("title: D\npublished_at: 2026-01-01\ndraft: true"));
  writeFileSync(join(dir, "future.md"), post("title: F\npublished_at: 2999-01-01"));
  writeFileSync(join(dir, "no-date.md"), post("title: No date"));
  writeFileSync(join(dir, "bad-yaml.md"), "---\ntitle: [unclosed\n---\nx\n");
  writeFileSync(join(dir, "typo.md"), post("title: T\npublised_at: 2026-01-01"));
  writeFileSync(join(dir, "no-front-matter.md"), "# Just markdown\n");
  writeFileSync(join(dir, "zz-dup.md"), post("title: Dup\nslug: bee\npublished_at: 2026-01-01"));
  writeFileSync(join(dir, "notes.txt"), "not a post");
  const old = new Date("2026-03-02T00:00:00Z");
  for (const f of ["a.md", "b.md", "c.md"]) utimesSync(join(dir, f), old, old);
  custom = await makeTestApp(undefined, { blogDir: dir });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("GET /blog/posts", () => {
  test("the repository's blog has at least two published posts about the product, public, newest first", async () => {
    const res = await t.call("GET", "/blog/posts");
    expect(res.status).toBe(200);
    expect(res.body.total).toBeGreaterThanOrEqual(2);
    expect(res.body.posts.map((p: any) => p.slug)).not.toContain("draft-whats-next");
    const dates = res.body.posts.map((p: any) => p.published_at);
    expect([...dates].sort().reverse()).toEqual(dates);
    const one = await t.call("GET", `/blog/posts/${res.body.posts[0].slug}`);
    expect(one.status).toBe(200);
    expect(one.body.html).toContain("<h2>");
    expect((await t.call("GET", "/blog/posts/draft-whats-next")).status).toBe(404);
  });

  test("lists published posts newest first then by slug; drafts, future posts and bad files are left out and warned", async () => {
    const res = await custom.call("GET", "/blog/posts");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      posts: [
        { slug: "c", title: "C", summary: "Sea", author: null, tags: [], published_at: "2026-03-01T06:00:00.000Z", updated_at: null },
        {
          slug: "a",
          title: "A",
          summary: null,
          author: "Ana",
          tags: ["x", "y"],
          published_at: "2026-01-02T00:00:00.000Z",
          updated_at: null,
        },
        { slug: "bee", title: "B", summary: null, author: null, tags: ["y"], published_at: "2026-01-02T00:00:00.000Z", updated_at: null },
      ],
      total: 3,
      has_more: false,
    });
    const warned = custom.logs.filter((l) => l.includes("blog post skipped")).map((l) => JSON.parse(l).file).sort();
    expect(warned).toEqual(["bad-yaml.md", "no-date.md", "no-front-matter.md", "typo.md", "zz-dup.md"]);
  });

  test("pages with limit and offset, filters by tag; limit over 200 is a 400", async () => {
    const page = await custom.call("GET", "/blog/posts?limit=1&offset=1");
    expect(page.body.posts.map((p: any) => p.slug)).toEqual(["a"]);
    expect(page.body.has_more).toBe(true);
    const tagged = await custom.call("GET", "/blog/posts?tag=y");
    expect(tagged.body.posts.map((p: any) => p.slug)).toEqual(["a", "bee"]);
    expect((await custom.call("GET", "/blog/posts?tag=nope")).body.total).toBe(0);
    const over = await custom.call("GET", "/blog/posts?limit=201");
    expect(over.status).toBe(400);
    expect(over.body.error.code).toBe("VALIDATION_FAILED");
    expect((await custom.call("GET", "/blog/posts?limit=0")).status).toBe(400);
    expect((await custom.call("GET", "/blog/posts?extra=1")).status).toBe(400);
  });

  test("strong ETag, Last-Modified and public caching; If-None-Match and If-Modified-Since answer 304", async () => {
    const res = await custom.call("GET", "/blog/posts");
    const etag = res.headers.get("etag")!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    expect(res.headers.get("cache-control")).toBe("public, max-age=300");
    const lastModified = res.headers.get("last-modified")!;
    expect(Number.isNaN(Date.parse(lastModified))).toBe(false);
    const hit = await custom.call("GET", "/blog/posts", { headers: { "if-none-match": etag } });
    expect(hit.status).toBe(304);
    expect(hit.body).toBeNull();
    expect(hit.headers.get("etag")).toBe(etag);
    expect(hit.headers.get("cache-control")).toBe("public, max-age=300");
    expect((await custom.call("GET", "/blog/posts", { headers: { "if-none-match": `"other", ${etag}` } })).status).toBe(304);
    expect((await custom.call("GET", "/blog/posts", { headers: { "if-none-match": '"other"' } })).status).toBe(200);
    expect((await custom.call("GET", "/blog/posts", { headers: { "if-modified-since": lastModified } })).status).toBe(304);
    const before = new Date(Date.parse(lastModified) - 1000).toUTCString();
    expect((await custom.call("GET", "/blog/posts", { headers: { "if-modified-since": before } })).status).toBe(200);
    // If-None-Match decides when both are sent.
    expect((await custom.call("GET", "/blog/posts", { headers: { "if-none-match": '"other"', "if-modified-since": lastModified } })).status)
      .toBe(200);
    // Another page is another answer.
    expect((await custom.call("GET", "/blog/posts?limit=1")).headers.get("etag")).not.toBe(etag);
  });
});

describe("GET /blog/posts/{slug}", () => {
  test("answers the post with its Markdown and HTML that escapes raw HTML and drops unsafe links", async () => {
    const res = await custom.call("GET", "/blog/posts/c");
    expect(res.status).toBe(200);
    expect(res.body.markdown).toContain("<script>alert(1)</script>");
    expect(res.body.html).toContain("<h1>Hi</h1>");
    expect(res.body.html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(res.body.html).not.toContain("<script");
    expect(res.body.html).not.toContain('href="javascript:');
    expect(res.body.html).toContain('href="https://example.com"');
    expect(res.body.last_modified).toBeUndefined();
    expect(res.headers.get("last-modified")).toBe(new Date("2026-03-02T00:00:00Z").toUTCString());
    const etag = res.headers.get("etag")!;
    expect((await custom.call("GET", "/blog/posts/c", { headers: { "if-none-match": etag } })).status).toBe(304);
    expect((await custom.call("GET", "/blog/posts/c", { headers: { "if-modified-since": "Mon, 02 Mar 2026 00:00:00 GMT" } })).status)
      .toBe(304);
  });

  test("a slug from front matter replaces the file name; drafts, future posts and unknown slugs are 404", async () => {
    expect((await custom.call("GET", "/blog/posts/bee")).body.title).toBe("B");
    expect((await custom.call("GET", "/blog/posts/b")).status).toBe(404);
    for (const slug of ["draft", "future", "nope"]) {
      const res = await custom.call("GET", `/blog/posts/${slug}`);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe("NOT_FOUND");
    }
    expect((await custom.call("GET", "/blog/posts/Bad_Slug")).status).toBe(400);
  });

  test("is in the OpenAPI document as public operations", async () => {
    const spec = (await t.call("GET", "/openapi.json")).body;
    for (const p of ["/api/v1/blog/posts", "/api/v1/blog/posts/{slug}"]) {
      expect(spec.paths[p].get.security).toEqual([]);
      expect(Object.keys(spec.paths[p].get.responses)).toEqual(expect.arrayContaining(["200", "304", "400"]));
    }
  });
});
