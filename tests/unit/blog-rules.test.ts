import { describe, expect, test } from "bun:test";
import { byNewest, isPublished, postFromFile } from "../../core/blog/mod.ts";
import { splitFrontMatter } from "../../adapters/blog-files/source.ts";

const file = (front_matter: unknown, name = "hello.md") => ({ name, front_matter, markdown: "x", modified_at: "2026-01-01T00:00:00Z" });

describe("blog rules", () => {
  test("postFromFile() defaults the slug to the file name and dates a bare day at midnight UTC", () => {
    const r = postFromFile(file({ title: " Hello ", published_at: "2026-05-04" }));
    expect(r).toEqual({
      post: {
        slug: "hello",
        title: "Hello",
        summary: null,
        author: null,
        tags: [],
        published_at: "2026-05-04T00:00:00.000Z",
        updated_at: null,
        draft: false,
        markdown: "x",
      },
    });
  });

  test("postFromFile() names the problem of a bad front matter", () => {
    const problem = (fm: unknown, name?: string) => (postFromFile(file(fm, name)) as { problem: string }).problem;
    expect(problem({ published_at: "2026-01-01" })).toBe("title is required");
    expect(problem({ title: "T" })).toBe("published_at is required");
    expect(problem({ title: "T", published_at: "May 4" })).toContain("published_at is not an ISO 8601");
    expect(problem({ title: "T", published_at: "2026-02-30T00:00:00Z" })).toBe("published_at is not a real date");
    expect(problem({ title: "T", published_at: "2026-01-01", tags: "x" })).toContain("tags");
    expect(problem({ title: "T", published_at: "2026-01-01", draft: "yes" })).toContain("draft");
    expect(problem({ title: "T", published_at: "2026-01-01", publised: 1 })).toBe("unknown front matter keys: publised");
    expect(problem({ title: "T", published_at: "2026-01-01" }, "Bad Name.md")).toContain("slug");
    expect(problem(["a"])).toBe("no front matter mapping");
  });

  test("isPublished() hides drafts and future posts; byNewest() orders newest first, then by slug", () => {
    const p = (slug: string, published_at: string, draft = false) => ({
      slug,
      title: slug,
      summary: null,
      author: null,
      tags: [],
      published_at,
      updated_at: null,
      draft,
      markdown: "",
    });
    const now = new Date("2026-06-01T00:00:00Z");
    expect(isPublished(p("a", "2026-06-01T00:00:00.000Z"), now)).toBe(true);
    expect(isPublished(p("a", "2026-06-01T00:00:01.000Z"), now)).toBe(false);
    expect(isPublished(p("a", "2026-01-01T00:00:00.000Z", true), now)).toBe(false);
    const sorted = [p("b", "2026-01-01"), p("c", "2026-02-01"), p("a", "2026-01-01")].sort(byNewest).map((x) => x.slug);
    expect(sorted).toEqual(["c", "a", "b"]);
  });

  test("splitFrontMatter() parses YAML 1.2 (core schema) and keeps the body; no front matter or bad YAML throws", () => {
    const r = splitFrontMatter("---\ntitle: A\npublished_at: 2026-01-01\ntags: [a, b]\n---\n\n# Body\n");
    expect(r).toEqual({ front_matter: { title: "A", published_at: "2026-01-01", tags: ["a", "b"] }, markdown: "# Body\n" });
    expect(() => splitFrontMatter("# Body")).toThrow("no front matter");
    expect(() => splitFrontMatter("---\ntitle: [x\n---\n")).toThrow();
    expect(() => splitFrontMatter("---\ntitle: a\ntitle: b\n---\n")).toThrow();
  });
});
