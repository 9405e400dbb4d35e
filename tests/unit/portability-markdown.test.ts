import { describe, expect, test } from "bun:test";
import { parse } from "yaml";
import { type ArchiveLine, topicMarkdown, writeWorkspaceArchive } from "../../core/portability/mod.ts";
import { archiveWorkspace } from "./fixtures/archive-workspace.ts";
import { bytesOf, fileText, untar } from "./fixtures/archive-tar.ts";

/** The front matter and the body of a Markdown file as a reader of front matter splits them. */
function split(md: string, version: "1.1" | "1.2" = "1.2"): { front: Record<string, unknown>; body: string } {
  const m = /^---\n([\s\S]*?)\n---\n\n([\s\S]*)$/.exec(md);
  if (!m) throw new Error(`no front matter in ${JSON.stringify(md.slice(0, 80))}`);
  return { front: parse(m[1]!, { version }), body: m[2]! };
}

const topic = (over: Partial<ArchiveLine<"topics">> = {}): ArchiveLine<"topics"> => ({
  ...archiveWorkspace().all.topics[0]!,
  ...over,
});

describe("topicMarkdown()", () => {
  test("topicMarkdown() writes title, slug, status, trust, tags, area, anchors, governance and updated_at as front matter", () => {
    const t = topic();
    const { front, body } = split(topicMarkdown(t, "Platform"));
    expect(front).toEqual({
      title: "Deploy runbook",
      slug: "deploy-runbook",
      status: "reviewed",
      trust: "reviewed",
      tags: ["ops"],
      area: "Platform",
      anchors: ["deploy/**/*.sh"],
      governance: { authoritative: true, approved_by: t.governance.approved_by, approved_at: t.governance.approved_at },
      updated_at: t.updated_at,
    });
    // The body's own `---` is text after the front matter, kept byte for byte.
    expect(body).toBe(`${t.body}\n`);
  });

  test("topicMarkdown() escapes any title so it reads back as the same string, to a YAML 1.1 or 1.2 reader", () => {
    const titles = [
      "yes",
      "on",
      "~",
      "0o17",
      "0777",
      "1_000",
      "1:20",
      "---",
      '---\nkey: "value" # not a comment',
      "key: value",
      "- a list?",
      "[not, a, list]",
      "{not: a map}",
      "null",
      "true",
      "0x1F",
      "1e3",
      "2026-04-01",
      "# heading",
      "&anchor *alias !tag %directive @at `tick`",
      " leading and trailing spaces ",
      "tab\tand\rcarriage return",
      "bell \u0007 and nul \u0000 and escape \u001b",
      "line\u2028separator and \u0085 next line",
      "emoji 🚀 and accents déjà vu, CJK 漢字",
      "'single' and \"double\" quotes \\ backslash",
      "...",
      "a very long title ".repeat(20).trim(),
    ];
    for (const title of titles) {
      const md = topicMarkdown(topic({ title }), null);
      const { front } = split(md);
      expect(front.title).toBe(title);
      expect(front.area).toBeNull();
      expect(split(md, "1.1").front.title).toBe(title);
      // The front matter closes on the first line that is exactly `---`: the title cannot close it early.
      expect(md.split("\n").filter((l) => l === "---")).toHaveLength(2 + (topic().body.split("\n").filter((l) => l === "---").length));
    }
  });

  test("topicMarkdown() shows an archived topic's trust as draft, and keeps an empty body empty", () => {
    const md = topicMarkdown(topic({ status: "archived", body: "" }), null);
    expect(split(md)).toMatchObject({ front: { status: "archived", trust: "draft" }, body: "" });
  });

  test("the archive's topics/<slug>.md are the topics' Markdown, area names resolved", async () => {
    const fixture = archiveWorkspace();
    const files = await untar(await bytesOf(writeWorkspaceArchive(fixture)));
    for (const t of fixture.all.topics) {
      const area = fixture.all.areas.find((a) => a.id === t.area_id)?.name ?? null;
      expect(fileText(files, `topics/${t.slug}.md`)).toBe(topicMarkdown(t, area));
    }
    const tricky = fixture.all.topics.find((t) => t.slug === "tricky")!;
    expect(split(fileText(files, "topics/tricky.md")).front.title).toBe(tricky.title);
  });

  test("without markdown, the archive holds data only", async () => {
    const files = await untar(await bytesOf(writeWorkspaceArchive(archiveWorkspace(), { markdown: false })));
    expect(files.some((f) => f.header.name.startsWith("topics/"))).toBe(false);
  });
});
