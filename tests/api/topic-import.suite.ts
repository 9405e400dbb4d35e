import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { gzipSync, strToU8, type Zippable, zipSync } from "fflate";
import { packTar, type TarEntry } from "modern-tar";
import { withAuthCache } from "../../adapters/cache/cached-stores.ts";
import { createLocalInvalidationBus } from "../../adapters/cache/invalidation-bus.ts";
import type { Stores } from "../../core/stores.ts";
import { type Personas, personas } from "../support/personas.ts";
import { makeTestApp, type TestApp } from "../support/test-app.ts";

/** A `.tar.gz` of `files` (path → text), built as an archiver would. */
type Bytes = Uint8Array<ArrayBuffer>;

export async function tarGz(files: Record<string, string>, extra: TarEntry[] = []): Promise<Bytes> {
  const entries: TarEntry[] = Object.entries(files).map(([name, text]) => {
    const body = strToU8(text);
    return { header: { name, size: body.length, type: "file" }, body };
  });
  return gzipSync(await packTar([...entries, ...extra]));
}

export function zip(files: Record<string, string>, extra: Zippable = {}): Bytes {
  const z: Zippable = { ...extra };
  for (const [name, text] of Object.entries(files)) z[name] = strToU8(text);
  return zipSync(z);
}

/** An Obsidian vault: nested folders, front matter, wikilinks, a relative link, an image, the editor's own folder. */
export const VAULT: Record<string, string> = {
  "Vault/Projects/Alpha.md": [
    "---",
    "title: Alpha project",
    "tags: [Planning, roadmap]",
    "---",
    "# Not the title",
    "",
    "Depends on [[Beta]] and see [[Notes/Gamma|the gamma note]] and [[Missing note]].",
    "![[pic.png]]",
    "```",
    "[[Delta]] in code is no link",
    "```",
  ].join("\n"),
  "Vault/Projects/Beta.md": "# Beta plan\n\nBack to [alpha](Alpha.md), and an image ![x](../attachments/pic.png).\n",
  "Vault/Notes/Gamma.md": "---\nslug: gamma-notes\n---\nNo heading here.\n",
  "Vault/Notes/Deep/Delta.md": "# Delta\n\nNested twice.\n",
  "Vault/attachments/pic.png": "not really a png",
  "Vault/.obsidian/app.json": "{}",
};

/** Markdown import over HTTP (issue #25, "Markdown in"), on the backend `open` gives. */
export function runTopicImportSuite(name: string, open: () => Promise<Stores>) {
  describe(name, () => {
    let t: TestApp;
    let small: TestApp;
    let stores: Stores;
    let p: Personas;
    const slug = "md-import";
    const ws = `/workspaces/${slug}`;

    beforeAll(async () => {
      stores = await open();
      t = await makeTestApp(withAuthCache(stores, createLocalInvalidationBus()));
      // The same store behind an app taking archives of at most 4 KiB.
      small = await makeTestApp(withAuthCache(stores, createLocalInvalidationBus()), { importLimitBytes: 4096 });
      p = await personas(t, slug);
    });
    afterAll(async () => {
      await stores?.close();
    });

    async function post(
      bytes: Bytes | ReadableStream<Uint8Array>,
      query = "",
      opts: { key?: string; type?: string; app?: TestApp; workspace?: string } = {},
    ) {
      const headers: Record<string, string> = { "x-api-key": opts.key ?? p.member, "content-type": opts.type ?? "application/gzip" };
      if (bytes instanceof Uint8Array) headers["content-length"] = String(bytes.length);
      const url = `http://localhost/api/v1${opts.workspace ?? ws}/topics/import${query}`;
      const res = await (opts.app ?? t).app.handle(new Request(url, { method: "POST", headers, body: bytes }));
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    }
    const topic = async (s: string) => (await t.call("GET", `${ws}/topics/${s}`, { key: p.member })).body;
    const relations = async (s: string) =>
      ((await t.call("GET", `${ws}/topics/${s}/relations`, { key: p.member })).body.relations as any[])
        .filter((r) => r.direction === "outgoing")
        .map((r) => r.topic.slug)
        .sort();
    const topicCount = async () => (await t.call("GET", `${ws}/topics?limit=1`, { key: p.member })).body.total as number;
    const lineOf = (body: any, path: string) => body.files.find((f: any) => f.path === path);

    describe("an Obsidian vault as .tar.gz", () => {
      test("a dry run reports what would happen and writes nothing", async () => {
        const res = await post(await tarGz(VAULT), "?dry_run=true");
        expect(res.status).toBe(201);
        expect(res.body).toMatchObject({
          dry_run: true,
          status: "draft",
          counts: { created: 4, updated: 0, suggested: 0, unchanged: 0, skipped: 2 },
          relations: { type: "references", created: 3, unchanged: 0, skipped: 0 },
        });
        expect(lineOf(res.body, "Vault/Projects/Alpha.md")).toMatchObject({ outcome: "created", slug: "projects-alpha", topic_id: null });
        expect(await topicCount()).toBe(0);
        expect((await t.call("GET", `${ws}/topics/projects-alpha`, { key: p.member })).status).toBe(404);
      });

      test("the import creates a draft topic per Markdown file: title, tags from front matter and folders, body without front matter", async () => {
        const res = await post(await tarGz(VAULT));
        expect(res.status).toBe(201);
        expect(res.body.dry_run).toBe(false);
        expect(res.body.counts).toEqual({ created: 4, updated: 0, suggested: 0, unchanged: 0, skipped: 2 });
        const skipped = res.body.files.filter((f: any) => f.outcome === "skipped").map((f: any) => [f.path, f.reason]);
        expect(skipped).toEqual([
          ["Vault/attachments/pic.png", "not Markdown (.md or .markdown)"],
          ["Vault/.obsidian/app.json", "hidden (.obsidian)"],
        ]);

        const alpha = await topic("projects-alpha");
        expect(alpha).toMatchObject({ title: "Alpha project", status: "draft", tags: ["planning", "projects", "roadmap"], version: 1 });
        expect(alpha.body.startsWith("# Not the title\n")).toBe(true);
        expect(alpha.body).toContain("![[pic.png]]"); // images stay links
        expect(lineOf(res.body, "Vault/Projects/Alpha.md")).toMatchObject({
          outcome: "created",
          topic_id: alpha.id,
          links: 2,
          unresolved_links: ["Missing note"],
        });
        expect(await topic("projects-beta")).toMatchObject({ title: "Beta plan", tags: ["projects"] });
        expect(await topic("gamma-notes")).toMatchObject({ title: "Gamma", tags: ["notes"], body: "No heading here.\n" });
        expect(await topic("notes-deep-delta")).toMatchObject({ title: "Delta", tags: ["deep", "notes"] });
      });

      test("a link between files is a references relation from the linking topic, each link once; a link inside code is none", async () => {
        expect(await relations("projects-alpha")).toEqual(["gamma-notes", "projects-beta"]);
        expect(await relations("projects-beta")).toEqual(["projects-alpha"]);
        expect(await relations("notes-deep-delta")).toEqual([]);
        const rel = (await t.call("GET", `${ws}/topics/projects-alpha/relations`, { key: p.member })).body.relations;
        expect(rel.map((r: any) => [r.direction, r.type, r.topic.slug]).sort()).toEqual([
          ["incoming", "references", "projects-beta"],
          ["outgoing", "references", "gamma-notes"],
          ["outgoing", "references", "projects-beta"],
        ]);
      });

      test("importing the same archive again changes nothing and says so for every file", async () => {
        const before = await topic("projects-alpha");
        const res = await post(await tarGz(VAULT));
        expect(res.status).toBe(201);
        expect(res.body.counts).toEqual({ created: 0, updated: 0, suggested: 0, unchanged: 4, skipped: 2 });
        expect(res.body.relations).toMatchObject({ created: 0, unchanged: 3 });
        expect(lineOf(res.body, "Vault/Projects/Alpha.md")).toMatchObject({
          outcome: "unchanged",
          reason: "the topic already says the same",
        });
        expect((await topic("projects-alpha")).version).toBe(before.version);
        expect(await topicCount()).toBe(4);
      });

      test("a changed file updates its draft (a new version); a reviewed topic gets a suggested edit instead, once", async () => {
        expect((await t.call("POST", `${ws}/topics/gamma-notes/approve`, { key: p.owner })).status).toBe(201);
        const changed = {
          ...VAULT,
          "Vault/Projects/Beta.md": "# Beta plan\n\nRewritten.\n",
          "Vault/Notes/Gamma.md": "---\nslug: gamma-notes\n---\nNew text.\n",
        };
        const res = await post(await tarGz(changed));
        expect(res.status).toBe(201);
        expect(res.body.counts).toEqual({ created: 0, updated: 1, suggested: 1, unchanged: 2, skipped: 2 });
        expect(await topic("projects-beta")).toMatchObject({ body: "# Beta plan\n\nRewritten.\n", version: 2, status: "draft" });
        // The reviewed text stands until an owner or admin merges the suggested edit.
        const gamma = await topic("gamma-notes");
        expect(gamma).toMatchObject({ status: "reviewed", body: "No heading here.\n" });
        const line = lineOf(res.body, "Vault/Notes/Gamma.md");
        expect(line.outcome).toBe("suggested");
        const proposals = (await t.call("GET", `${ws}/topics/gamma-notes/proposals?status=open`, { key: p.member })).body.proposals;
        expect(proposals.map((x: any) => [x.id, x.patch])).toEqual([[line.proposal_id, { body: "New text.\n" }]]);
        // The link Beta → Alpha is gone from the text; the relation stays (an import adds, never removes).
        expect(await relations("projects-beta")).toEqual(["projects-alpha"]);

        const again = await post(await tarGz(changed));
        expect(again.body.counts).toEqual({ created: 0, updated: 0, suggested: 0, unchanged: 4, skipped: 2 });
        expect(lineOf(again.body, "Vault/Notes/Gamma.md").reason).toContain("open suggested edit");
        expect((await t.call("GET", `${ws}/topics/gamma-notes/proposals?status=open`, { key: p.member })).body.total).toBe(1);
      });
    });

    describe("a Notion export as .zip", () => {
      const notion = {
        "Export-7f3a/Launch Plan 0123456789abcdef0123456789abcdef.md":
          "# Launch Plan\n\nSee [Budget](Launch%20Plan%200123456789abcdef0123456789abcdef/Budget%20fedcba9876543210fedcba9876543210.md).\n",
        "Export-7f3a/Launch Plan 0123456789abcdef0123456789abcdef/Budget fedcba9876543210fedcba9876543210.md": "# Budget\n\n42.\n",
        "Export-7f3a/Launch Plan 0123456789abcdef0123456789abcdef/chart.csv": "a,b\n",
      };

      test("?status=proposed puts the created topics up for review; Notion's ids are no part of titles, slugs or tags", async () => {
        const res = await post(zip(notion), "?status=proposed", { type: "application/zip" });
        expect(res.status).toBe(201);
        expect(res.body).toMatchObject({ status: "proposed", counts: { created: 2, skipped: 1 }, relations: { created: 1 } });
        expect(await topic("launch-plan")).toMatchObject({ title: "Launch Plan", status: "proposed", tags: [] });
        expect(await topic("launch-plan-budget")).toMatchObject({ title: "Budget", status: "proposed", tags: ["launch-plan"] });
        expect(await relations("launch-plan")).toEqual(["launch-plan-budget"]);
      });

      test("status=reviewed is refused: Knowledge is made by review", async () => {
        const res = await post(zip(notion), "?status=reviewed", { type: "application/zip" });
        expect(res.status).toBe(400);
        expect(res.body.error.code).toBe("VALIDATION_FAILED");
      });
    });

    describe("refusals write nothing", () => {
      test("a path climbing out of the archive, an absolute path or a link is a 400 ARCHIVE_UNSAFE_ENTRY", async () => {
        const before = await topicCount();
        const cases: Array<[Bytes, string]> = [
          [await tarGz({ "ok.md": "# Fine\n", "../evil.md": "# Evil\n" }), "application/gzip"],
          [await tarGz({ "ok.md": "# Fine\n", "/etc/evil.md": "# Evil\n" }), "application/gzip"],
          [
            await tarGz({ "ok.md": "# Fine\n" }, [{ header: { name: "link.md", size: 0, type: "symlink", linkname: "/etc/passwd" } }]),
            "application/gzip",
          ],
          [zip({ "ok.md": "# Fine\n", "a/../../evil.md": "# Evil\n" }), "application/zip"],
          [
            zip({ "ok.md": "# Fine\n" }, { "link.md": [strToU8("/etc/passwd"), { os: 3, attrs: (0o120777 << 16) >>> 0 }] }),
            "application/zip",
          ],
        ];
        for (const [bytes, type] of cases) {
          const res = await post(bytes, "", { type });
          expect(res.status).toBe(400);
          expect(res.body.error.code).toBe("ARCHIVE_UNSAFE_ENTRY");
        }
        expect(await topicCount()).toBe(before);
      });

      test("a body that is not gzip or zip, or a truncated one, is a 400 ARCHIVE_INVALID", async () => {
        const good = await tarGz({ "fine.md": "# Fine\n" });
        for (
          const bytes of [
            strToU8("# just markdown\n"),
            good.subarray(0, good.length - 9),
            gzipSync(strToU8("not a tar archive at all, padded ".repeat(40))),
            new Uint8Array(),
          ]
        ) {
          const res = await post(bytes);
          expect(res.status).toBe(400);
          expect(res.body.error.code).toBe("ARCHIVE_INVALID");
        }
        expect((await t.call("GET", `${ws}/topics/fine`, { key: p.member })).status).toBe(404);
      });

      test("a problem in one file (bad front matter, two files with one slug) is a 400 IMPORT_INVALID listing them, and nothing is written", async () => {
        const res = await post(
          await tarGz({
            "good.md": "# Good\n",
            "bad.md": "---\ntitle: [unclosed\n---\nText\n",
            "one.md": "---\nslug: same\n---\n",
            "two.md": "---\nslug: same\n---\n",
          }),
        );
        expect(res.status).toBe(400);
        expect(res.body.error.code).toBe("IMPORT_INVALID");
        expect(res.body.error.problems).toBe(3);
        expect(res.body.error.details.map((d: any) => d.path).sort()).toEqual(["bad.md", "one.md", "two.md"]);
        expect((await t.call("GET", `${ws}/topics/good`, { key: p.member })).status).toBe(404);
      });

      test("an archive over IMPORT_LIMIT_BYTES is a 413, declared or streamed", async () => {
        const big = await tarGz(
          Object.fromEntries(Array.from({ length: 40 }, (_, i) => [
            `n${i}.md`,
            `# N${i}\n${Array.from({ length: 8 }, () => crypto.randomUUID()).join(" ")}\n`,
          ])),
        );
        expect(big.length).toBeGreaterThan(4096);
        const declared = await post(big, "", { app: small });
        expect(declared.status).toBe(413);
        expect(declared.body.error.code).toBe("PAYLOAD_TOO_LARGE");
        const streamed = await post(new Blob([big]).stream(), "", { app: small });
        expect(streamed.status).toBe(413);
        expect(streamed.body.error.code).toBe("PAYLOAD_TOO_LARGE");
        expect((await t.call("GET", `${ws}/topics/n0`, { key: p.member })).status).toBe(404);
        // Under the limit, the same app takes a streamed body.
        const fits = await post(new Blob([await tarGz({ "small-one.md": "# Small\n" })]).stream(), "", { app: small });
        expect(fits.status).toBe(201);
        expect(fits.body.counts.created).toBe(1);
      });

      test("a JSON body is a 400 saying to send the archive", async () => {
        const res = await t.call("POST", `${ws}/topics/import`, { key: p.member, body: { files: [] } });
        expect(res.status).toBe(400);
        expect(res.body.error.code).toBe("VALIDATION_FAILED");
      });
    });
  });
}
