// Runs under Deno (not bun:test): the workspace archive (core/portability) writes, verifies and
// reads back on another runtime, with Web Streams, CompressionStream and Web Crypto only.
import { readWorkspaceArchive, topicMarkdown, verifyWorkspaceArchive, writeWorkspaceArchive } from "../../core/mod.ts";
import { archiveWorkspace } from "../unit/fixtures/archive-workspace.ts";
import { bytesOf, editLines, rehash, streamOf, tarGz, untar } from "../unit/fixtures/archive-tar.ts";

declare const Deno: { test(name: string, fn: () => Promise<void>): void };

function assert(cond: unknown, message: string): asserts cond {
  if (!cond) throw new Error(`Assertion failed: ${message}`);
}

Deno.test("archive on Deno: every kind is written, verified and read back line for line", async () => {
  const fixture = archiveWorkspace();
  const gz = await bytesOf(writeWorkspaceArchive(fixture, { partBytes: 700 }));
  const v = await verifyWorkspaceArchive(streamOf(gz));
  assert(v.ok, `verified: ${JSON.stringify(v.problems)}`);
  const back: Record<string, unknown[]> = {};
  for await (const r of readWorkspaceArchive(streamOf(gz), v.manifest)) (back[r.kind] ??= []).push(r.value);
  assert(JSON.stringify(back) === JSON.stringify(fixture.all), "the lines read back are the lines written, kind by kind");
  const files = await untar(gz);
  assert(files.at(-1)!.header.name === "manifest.json", "the manifest is the last entry");
  const md = new TextDecoder().decode(files.find((f) => f.header.name === "topics/tricky.md")!.data);
  assert(md === topicMarkdown(fixture.all.topics[3]!, null), "a topic's Markdown is in the archive");
});

Deno.test("archive on Deno: a dangling reference and a changed file are refused with file, line and path", async () => {
  const files = await untar(await bytesOf(writeWorkspaceArchive(archiveWorkspace())));
  editLines(files, "data/relations.0001.ndjson", (r) => ({ ...r, to_topic_id: "0196ffff-0000-7000-8000-000000000000" }));
  await rehash(files);
  editLines(files, "data/areas.0001.ndjson", (a) => ({ ...a, name: "Changed" }));
  const v = await verifyWorkspaceArchive(streamOf(await tarGz(files)));
  assert(!v.ok, "refused");
  const got = v.problems.map((p) => `${p.file}:${p.line}:${p.path}`).sort();
  assert(
    JSON.stringify(got) === JSON.stringify(["data/areas.0001.ndjson:null:", "data/relations.0001.ndjson:1:/to_topic_id"]),
    `problems: ${JSON.stringify(v.problems)}`,
  );
});
