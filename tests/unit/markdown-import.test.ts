import { describe, expect, test } from "bun:test";
import { gzipSync, strToU8, zipSync } from "fflate";
import { packTar } from "modern-tar";
import { safeEntryPath } from "../../core/kernel/archive-entries.ts";
import { readArchive } from "../../core/kernel/archive-reader.ts";
import { isAppError } from "../../core/kernel/errors.ts";
import { extractLinks, NoteIndex } from "../../core/topics/markdown-links.ts";
import { readMarkdownNote } from "../../core/topics/markdown-note.ts";
import { commonRoot, hashedSlug, settleVault } from "../../core/topics/markdown-vault.ts";

const note = (path: string, text: string) => readMarkdownNote(path, strToU8(text));
const codeOf = async (p: Promise<unknown>) => {
  try {
    await p;
    return "none";
  } catch (e) {
    return isAppError(e) ? e.code : String(e);
  }
};

describe("readMarkdownNote()", () => {
  test("takes title, tags and slug from front matter and keeps the body without it", () => {
    const { note: n } = note(
      "a/b.md",
      '---\ntitle: Hello\ntags: "#one, two three"\nslug: my-slug\nother: kept out\n---\n# Heading\nText\n',
    );
    expect(n).toEqual({
      title: "Hello",
      titleFrom: "front_matter",
      tags: ["one", "two", "three"],
      slug: "my-slug",
      body: "# Heading\nText\n",
    });
  });

  test("falls back to the first # heading outside code, then to the file name without Notion's id", () => {
    expect(note("x.md", "```\n# in code\n```\n## Sub\n# Real title #\n").note?.title).toBe("Real title");
    expect(note("f/My Page 0123456789abcdef0123456789abcdef.md", "no heading").note).toMatchObject({
      title: "My Page",
      titleFrom: "file_name",
    });
  });

  test("reports bad front matter, a non-mapping, a wrong tags type, NUL, bad UTF-8 and an over-long title", () => {
    expect(note("a.md", "---\ntitle: [x\n---\n").problems[0]!.field).toBe("front_matter");
    expect(note("a.md", "---\n- a\n- b\n---\n").problems[0]!.message).toContain("mapping");
    expect(note("a.md", "---\ntags: {a: 1}\n---\n").problems[0]!.field).toBe("tags");
    expect(note("a.md", "a\0b").problems[0]!.message).toContain("NUL");
    expect(readMarkdownNote("a.md", new Uint8Array([0xff, 0xfe, 0x00])).problems[0]!.message).toContain("UTF-8");
    expect(note("a.md", `# ${"x".repeat(201)}\n`).problems[0]!.field).toBe("title");
  });

  test("a `---` without its closing line is no front matter", () => {
    expect(note("a.md", "---\nnot closed\n").note?.body).toBe("---\nnot closed\n");
  });
});

describe("extractLinks() and NoteIndex", () => {
  const body = [
    '[a](../b/c.md) [t](d.md "title") ![img](e.png) [web](https://x.org/f.md) [anchor](#top)',
    "[n](Page%20One%20abc.md) `[code](g.md)` [[Wiki]] [[Folder/Other|alias]] [[Head#Section]] ![[embed.png]]",
    "[ref]: ref.md",
    "~~~",
    "[[Fenced]]",
    "~~~",
  ].join("\n");

  test("finds relative links, reference definitions and wikilinks; not images, URLs, anchors or code", () => {
    expect(extractLinks(body)).toEqual([
      { kind: "path", target: "../b/c.md" },
      { kind: "path", target: "d.md" },
      { kind: "path", target: "Page One abc.md" },
      { kind: "wiki", target: "Wiki" },
      { kind: "wiki", target: "Folder/Other" },
      { kind: "wiki", target: "Head" },
      { kind: "wiki", target: "embed.png" },
      { kind: "path", target: "ref.md" },
    ]);
  });

  test("resolves paths relative to the linking file, with or without extension, never above the root", () => {
    const index = new NoteIndex(["v/a/x.md", "v/b/c.md", "v/a/d.md", "v/top.md"]);
    expect(index.resolve("v/a/x.md", { kind: "path", target: "../b/c.md" })).toBe("v/b/c.md");
    expect(index.resolve("v/a/x.md", { kind: "path", target: "d" })).toBe("v/a/d.md");
    expect(index.resolve("v/a/x.md", { kind: "path", target: "/v/top.md" })).toBe("v/top.md");
    expect(index.resolve("v/a/x.md", { kind: "path", target: "../../../top.md" })).toBeNull();
  });

  test("resolves wikilinks by name, case-insensitively: the linking file's folder first, then the shortest path", () => {
    const index = new NoteIndex(["v/a/Note.md", "v/b/note.md", "v/deep/er/Note.md", "v/x/Other.md"]);
    expect(index.resolve("v/b/y.md", { kind: "wiki", target: "NOTE" })).toBe("v/b/note.md");
    expect(index.resolve("v/z/y.md", { kind: "wiki", target: "Note" })).toBe("v/a/Note.md");
    expect(index.resolve("v/z/y.md", { kind: "wiki", target: "er/Note" })).toBe("v/deep/er/Note.md");
    expect(index.resolve("v/z/y.md", { kind: "wiki", target: "x/Other.md" })).toBe("v/x/Other.md");
    expect(index.resolve("v/z/y.md", { kind: "wiki", target: "Nope" })).toBeNull();
  });
});

describe("settleVault()", () => {
  const n = (path: string, text = "# T\n") => ({ path, note: note(path, text).note! });

  test("strips the one folder every file shares, and derives slugs and folder tags below it", () => {
    expect(commonRoot(["V/a.md", "V/b/c.md"])).toBe("V");
    expect(commonRoot(["V/a.md", "W/b.md"])).toBeNull();
    const { notes, problems } = settleVault([n("V/Team Notes/Plan.md"), n("V/top.md")]);
    expect(problems).toEqual([]);
    expect(notes.map((x) => [x.slug, x.tags])).toEqual([["team-notes-plan", ["team-notes"]], ["top", []]]);
  });

  test("a derived slug already held, or reserved, takes a hash of its path; the same archive gives the same slugs", () => {
    const files = [n("v/A B.md"), n("v/a-b.md"), n("v/search.md"), n("v/x.md", "---\nslug: a-b-2\n---\n")];
    const first = settleVault(files).notes.map((x) => [x.path, x.slug]);
    expect(first).toEqual([
      ["v/A B.md", "a-b"],
      ["v/a-b.md", hashedSlug("a-b", "v/a-b.md")],
      ["v/search.md", hashedSlug("search", "v/search.md")],
      ["v/x.md", "a-b-2"],
    ]);
    expect(settleVault([...files].reverse()).notes.map((x) => [x.path, x.slug])).toEqual(first);
    expect(hashedSlug("a-b", "v/a-b.md")).toMatch(/^a-b-[0-9a-f]{8}$/);
  });

  test("two files naming one slug, an invalid one or a bad tag are problems; a folder too long for a tag is a warning", () => {
    const { notes, problems } = settleVault([
      n("one.md", "---\nslug: same\n---\n"),
      n("two.md", "---\nslug: same\n---\n"),
      n("bad.md", "---\nslug: Not A Slug\n---\n"),
      n("tags.md", `---\ntags: [${"t".repeat(65)}]\n---\n`),
      n(`${"f".repeat(70)}/deep.md`),
    ]);
    expect(problems.map((p) => [p.path, p.field])).toEqual([
      ["bad.md", "slug"],
      ["one.md", "slug"],
      ["two.md", "slug"],
      ["tags.md", "tags"],
    ]);
    expect(notes.find((x) => x.path.endsWith("deep.md"))!.warnings[0]).toContain("makes no tag");
  });
});

describe("safeEntryPath() and readArchive()", () => {
  test("safeEntryPath() normalises separators and refuses what leaves the archive", () => {
    expect(safeEntryPath("./a\\b//c.md")).toBe("a/b/c.md");
    for (const bad of ["../x", "a/../../x", "/etc/x", "C:\\x", "a\u0000b", "./"]) {
      expect(() => safeEntryPath(bad)).toThrow();
    }
  });

  const limits = { maxBytes: 1e7, maxEntries: 10, maxExpandedBytes: 1e7, maxFileBytes: 1e5, maxReadBytes: 1e6 };
  const stream = (b: Uint8Array<ArrayBuffer>) => new Blob([b]).stream();

  test("reads a .tar.gz and a .zip alike, reading only the files wanted", async () => {
    const tar = gzipSync(
      await packTar([{ header: { name: "v/a.md", size: 2, type: "file" }, body: "hi" }, {
        header: { name: "v/b.bin", size: 3, type: "file" },
        body: "xyz",
      }]),
    );
    const z = zipSync({ "v/a.md": strToU8("hi"), "v/b.bin": [strToU8("xyz"), { level: 0 }] });
    for (const archive of [tar, z]) {
      const files = await readArchive(stream(archive), limits, (p) => p.endsWith(".md"));
      expect(files.map((f) => [f.path, f.size, f.bytes && new TextDecoder().decode(f.bytes)])).toEqual([["v/a.md", 2, "hi"], [
        "v/b.bin",
        3,
        null,
      ]]);
    }
  });

  test("holds every bound: files, one file, what a gzip expands to", async () => {
    const many = zipSync(Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`${i}.md`, strToU8("x")])));
    expect(await codeOf(readArchive(stream(many), limits, () => true))).toBe("PAYLOAD_TOO_LARGE");
    const big = gzipSync(await packTar([{ header: { name: "big.md", size: 200_000, type: "file" }, body: "x".repeat(200_000) }]));
    expect(await codeOf(readArchive(stream(big), limits, () => true))).toBe("PAYLOAD_TOO_LARGE");
    expect(await codeOf(readArchive(stream(big), { ...limits, maxExpandedBytes: 50_000 }, () => false))).toBe("PAYLOAD_TOO_LARGE");
  });

  test("a zip entry whose data does not match its CRC-32 is ARCHIVE_INVALID", async () => {
    const z = zipSync({ "a.md": [strToU8("hello world"), { level: 0 }] });
    const at = new TextDecoder("latin1").decode(z).indexOf("hello world");
    z[at] = "j".charCodeAt(0);
    expect(await codeOf(readArchive(stream(z), limits, () => true))).toBe("ARCHIVE_INVALID");
  });
});
