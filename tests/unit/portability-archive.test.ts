import { describe, expect, test } from "bun:test";
import {
  ARCHIVE_KINDS,
  ARCHIVE_LINE_SCHEMAS,
  ARCHIVE_MAX_PROBLEMS,
  ARCHIVE_REFERENCES,
  ArchiveChangedError,
  type ArchiveKind,
  type ArchiveManifest,
  type ArchiveRecord,
  readWorkspaceArchive,
  verifyWorkspaceArchive,
  writeWorkspaceArchive,
} from "../../core/portability/mod.ts";
import { archiveWorkspace } from "./fixtures/archive-workspace.ts";
import { bytesOf, editLines, fileText, rehash, setText, streamOf, type TarFile, tarGz, untar } from "./fixtures/archive-tar.ts";

async function written(options?: Parameters<typeof writeWorkspaceArchive>[1]) {
  const fixture = archiveWorkspace();
  return { fixture, gz: await bytesOf(writeWorkspaceArchive(fixture, options)) };
}

async function readAll(gz: Uint8Array, manifest: ArchiveManifest): Promise<ArchiveRecord[]> {
  const out: ArchiveRecord[] = [];
  for await (const r of readWorkspaceArchive(streamOf(gz), manifest)) out.push(r);
  return out;
}

async function problemsOf(files: TarFile[]) {
  const v = await verifyWorkspaceArchive(streamOf(await tarGz(files)));
  expect(v.ok).toBe(false);
  return v.ok ? [] : v.problems;
}

describe("writeWorkspaceArchive() and the two passes of the reader", () => {
  test("round trip: every kind written is verified and read back line for line, in replay order", async () => {
    const { fixture, gz } = await written();
    const v = await verifyWorkspaceArchive(streamOf(gz));
    expect(v.problems).toEqual([]);
    if (!v.ok) throw new Error("not verified");
    for (const kind of ARCHIVE_KINDS) {
      expect(fixture.all[kind].length).toBeGreaterThan(0);
      expect(v.manifest.kinds[kind].count).toBe(fixture.all[kind].length);
    }
    expect(v.manifest).toMatchObject({
      format: "wks-workspace-archive",
      format_version: 1,
      service_version: "0.1.0",
      consistency: "snapshot",
      workspace: { slug: "acme", plan: "team", name: "Acme & Co" },
    });

    const records = await readAll(gz, v.manifest);
    const byKind = Object.fromEntries(ARCHIVE_KINDS.map((k) => [k, records.filter((r) => r.kind === k).map((r) => r.value)]));
    expect(byKind).toEqual(JSON.parse(JSON.stringify(fixture.all)));
    // Replay order: kinds never go back.
    const order = records.map((r) => ARCHIVE_KINDS.indexOf(r.kind));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(records[0]).toMatchObject({ kind: "workspace", file: "data/workspace.0001.ndjson", line: 1 });
  });

  test("the archive is a plain gzip'd tar: data parts, a Markdown file per topic, the manifest last, hashes of every other file", async () => {
    const { fixture, gz } = await written();
    const files = await untar(gz);
    const names = files.map((f) => f.header.name);
    expect(names.at(-1)).toBe("manifest.json");
    expect(names).toContain("data/records.0001.ndjson");
    for (const t of fixture.all.topics) expect(names).toContain(`topics/${t.slug}.md`);
    const manifest = JSON.parse(fileText(files, "manifest.json"));
    expect(manifest.files.map((f: { path: string }) => f.path)).toEqual(names.slice(0, -1));
    const records = manifest.files.find((f: { path: string }) => f.path === "data/records.0001.ndjson");
    const bytes = files.find((f) => f.header.name === "data/records.0001.ndjson")!.data!;
    const hex = [...new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>))].map((b) =>
      b.toString(16).padStart(2, "0")
    ).join("");
    expect(records).toEqual({ path: "data/records.0001.ndjson", bytes: bytes.length, sha256: hex, lines: 1 });
    expect(files.every((f) => f.header.type === "file" && f.header.mtime?.toISOString() === fixture.exportedAt)).toBe(true);
  });

  test("nothing secret leaves: no repo credentials, claim tokens, pending unlocks, leases or cursors", async () => {
    const { gz } = await written();
    const files = await untar(gz);
    const all = files.map((f) => new TextDecoder().decode(f.data)).join("\n");
    expect(all).not.toContain("ghp_secret");
    expect(all).not.toContain("x-access-token");
    expect(fileText(files, "data/repos.0001.ndjson")).toContain('"clone_url":"https://github.com/acme/api.git"');
    expect(all).not.toContain("claim-token");
    expect(fileText(files, "data/contact_unlocks.0001.ndjson").trim().split("\n")).toHaveLength(1);
    const run = JSON.parse(fileText(files, "data/radar_runs.0001.ndjson"));
    expect(Object.keys(run)).not.toContain("lease_until");
    expect(Object.keys(run)).not.toContain("cursor");
    expect(Object.keys(run)).not.toContain("attempt");
    const revoked = JSON.parse(fileText(files, "data/share_links.0001.ndjson").trim().split("\n")[1]!);
    expect(revoked).toMatchObject({ token_hash: null, revoked_at: expect.any(String) });
  });

  test("a kind larger than a part is split into numbered parts of whole lines, each within the bound", async () => {
    const partBytes = 700;
    const { fixture, gz } = await written({ partBytes });
    const files = await untar(gz);
    const manifest = JSON.parse(fileText(files, "manifest.json")) as ArchiveManifest;
    expect(manifest.part_bytes).toBe(partBytes);
    expect(manifest.kinds.topic_history.files.length).toBeGreaterThan(1);
    expect(manifest.kinds.topic_history.files[1]).toBe("data/topic_history.0002.ndjson");
    for (const kind of ARCHIVE_KINDS) {
      for (const path of manifest.kinds[kind].files) {
        const body = fileText(files, path);
        const lines = body.trimEnd().split("\n");
        // Within the bound, unless one line alone is longer (it then has a part of its own).
        expect(body.length <= partBytes || lines.length === 1).toBe(true);
        expect(body.endsWith("\n")).toBe(true);
      }
    }
    const v = await verifyWorkspaceArchive(streamOf(gz));
    if (!v.ok) throw new Error(JSON.stringify(v.problems));
    const back = await readAll(gz, v.manifest);
    expect(back.filter((r) => r.kind === "topic_history").map((r) => r.value)).toEqual(
      JSON.parse(JSON.stringify(fixture.all.topic_history)),
    );
  });

  test("the writer refuses a line its kind's schema does not allow: the stream errors and carries no manifest", async () => {
    const fixture = archiveWorkspace();
    const leaky = { ...fixture.all.members[0]!, api_key: "wks_live_secret" };
    const stream = writeWorkspaceArchive({ ...fixture, lines: { ...fixture.lines, members: [leaky] } });
    await expect(bytesOf(stream)).rejects.toThrow(/Cannot export members line 1: \/api_key/);

    const raw = { ...fixture.all.repos[0]!, clone_url: "https://user:pw@git.example/acme/api.git" };
    await expect(bytesOf(writeWorkspaceArchive({ ...fixture, lines: { ...fixture.lines, repos: [raw] } }))).rejects.toThrow(
      /Cannot export repos line 1: \/clone_url/,
    );
  });

  test("a store that fails midway errors the stream", async () => {
    const fixture = archiveWorkspace();
    async function* failing() {
      yield fixture.all.records[0]!;
      throw new Error("connection reset");
    }
    await expect(bytesOf(writeWorkspaceArchive({ ...fixture, lines: { ...fixture.lines, records: failing() } }))).rejects.toThrow(
      "connection reset",
    );
  });
});

describe("verifyWorkspaceArchive() refuses what it cannot trust, naming file, line and path", () => {
  test("a file changed after export: its hash differs from the manifest's", async () => {
    const files = await untar((await written()).gz);
    editLines(files, "data/records.0001.ndjson", (r) => ({ ...r, fields: { ...r.fields, amount: 999999 } }));
    const problems = await problemsOf(files);
    expect(problems).toEqual([
      {
        file: "data/records.0001.ndjson",
        line: null,
        path: "",
        message: expect.stringMatching(/^Hash mismatch: its SHA-256 is [0-9a-f]{64}, the manifest says/),
      },
    ]);
  });

  test("another format version is refused alone, before any line is judged", async () => {
    const files = await untar((await written()).gz);
    const manifest = JSON.parse(fileText(files, "manifest.json"));
    setText(files, "manifest.json", JSON.stringify({ ...manifest, format_version: 2 }));
    editLines(files, "data/areas.0001.ndjson", () => "not json");
    expect(await problemsOf(files)).toEqual([
      { file: "manifest.json", line: null, path: "/format_version", message: "Unsupported format version 2: this server reads version 1" },
    ]);
    setText(files, "manifest.json", JSON.stringify({ ...manifest, format: "tarball" }));
    expect((await problemsOf(files))[0]).toMatchObject({ path: "/format", message: expect.stringContaining("Not a workspace archive") });
  });

  test("bad lines: not JSON, a missing field, an unknown field (a secret), a value outside its set", async () => {
    const files = await untar((await written()).gz);
    editLines(files, "data/members.0001.ndjson", (m, n) => (n === 1 ? { ...m, api_key: "wks_x", role: "god" } : "{oops"));
    editLines(files, "data/records.0001.ndjson", ({ status: _s, ...r }) => r);
    await rehash(files);
    const problems = await problemsOf(files);
    expect(problems).toContainEqual({ file: "data/members.0001.ndjson", line: 1, path: "/api_key", message: expect.any(String) });
    expect(problems).toContainEqual({
      file: "data/members.0001.ndjson",
      line: 1,
      path: "/role",
      message: expect.stringContaining("owner, admin, member"),
    });
    expect(problems).toContainEqual({ file: "data/members.0001.ndjson", line: 2, path: "", message: expect.stringMatching(/^Not JSON/) });
    expect(problems).toContainEqual({ file: "data/records.0001.ndjson", line: 1, path: "/status", message: expect.any(String) });
  });

  test("dangling references: to an earlier kind at once, a forward one at the end; history may name what is gone", async () => {
    const files = await untar((await written()).gz);
    const nowhere = "0196ffff-0000-7000-8000-000000000000";
    editLines(files, "data/relations.0001.ndjson", (r) => ({ ...r, to_topic_id: nowhere }));
    editLines(files, "data/radar_runs.0001.ndjson", (r) => ({ ...r, monitor_id: nowhere }));
    editLines(files, "data/topics.0001.ndjson", (t, n) => (n === 1 ? { ...t, tags: [...t.tags, "untagged"] } : t));
    // History may name objects the workspace no longer has: no problem.
    editLines(files, "data/topic_history.0001.ndjson", (e) => ({ ...e, repo_id: nowhere }));
    await rehash(files);
    const problems = await problemsOf(files);
    expect(problems).toEqual([
      {
        file: "data/topics.0001.ndjson",
        line: 1,
        path: "/tags/1",
        message: 'Dangling reference: no line of tags has name "untagged"',
      },
      {
        file: "data/relations.0001.ndjson",
        line: 1,
        path: "/to_topic_id",
        message: `Dangling reference: no line of topics has id "${nowhere}"`,
      },
      {
        file: "data/radar_runs.0001.ndjson",
        line: 1,
        path: "/monitor_id",
        message: `Dangling reference: no line of radar_monitors has id "${nowhere}"`,
      },
    ]);
  });

  test("a record's entity field naming no entity is history (kept), its entity_id a dangling reference", async () => {
    const files = await untar((await written()).gz);
    const nowhere = "0196ffff-0000-7000-8000-000000000001";
    editLines(files, "data/records.0001.ndjson", (r) => ({ ...r, entity_id: nowhere, fields: { ...r.fields, contacts: [nowhere] } }));
    await rehash(files);
    expect(await problemsOf(files)).toEqual([
      {
        file: "data/records.0001.ndjson",
        line: 1,
        path: "/entity_id",
        message: `Dangling reference: no line of entities has id "${nowhere}"`,
      },
    ]);
  });

  test("duplicate ids, and ledger lines out of seq order", async () => {
    const files = await untar((await written()).gz);
    const entities = fileText(files, "data/entities.0001.ndjson");
    setText(files, "data/entities.0001.ndjson", entities + entities.split("\n")[0] + "\n");
    editLines(files, "data/credit_ledger.0001.ndjson", (e, n) => (n === 4 ? { ...e, seq: 1 } : e));
    const manifest = JSON.parse(fileText(files, "manifest.json"));
    manifest.kinds.entities.count = 3;
    setText(files, "manifest.json", JSON.stringify(manifest));
    await rehash(files);
    const problems = await problemsOf(files);
    expect(problems).toContainEqual({
      file: "data/entities.0001.ndjson",
      line: 3,
      path: "/id",
      message: expect.stringMatching(/^Duplicate/),
    });
    expect(problems).toContainEqual({
      file: "data/credit_ledger.0001.ndjson",
      line: 4,
      path: "/seq",
      message: expect.stringMatching(/seq order/),
    });
  });

  test("unsafe and unknown names, links, entries after the manifest and a missing manifest", async () => {
    const files = await untar((await written()).gz);
    const file = (name: string, text = "x", type: "file" | "symlink" | "link" = "file"): TarFile => ({
      header: { name, size: 0, type, ...(type === "file" ? {} : { linkname: "/etc/passwd" }) },
      data: type === "file" ? new TextEncoder().encode(text) : undefined,
    });
    const evil = [
      file("../evil.sh"),
      file("/etc/passwd"),
      file("data/../../outside.ndjson"),
      file("topics\\..\\win.md"),
      file("C:/boot.ini"),
      file("topics/linked.md", "", "symlink"),
      file("topics/hard.md", "", "link"),
      file("notes.txt"),
      file("data/secrets.0001.ndjson", "{}\n"),
      file("data/records.1.ndjson", "{}\n"),
    ];
    const problems = await problemsOf([...evil, ...files]);
    const message = (name: string) => problems.find((p) => p.file === name)?.message;
    expect(message("../evil.sh")).toBe("Refused: a `..` segment");
    expect(message("/etc/passwd")).toBe("Refused: an absolute path");
    expect(message("data/../../outside.ndjson")).toBe("Refused: a `..` segment");
    expect(message("topics\\..\\win.md")).toBe("Refused: a backslash in the name");
    expect(message("C:/boot.ini")).toBe("Refused: a drive letter");
    expect(message("topics/linked.md")).toBe("Refused: a symlink entry (only regular files are allowed)");
    expect(message("topics/hard.md")).toBe("Refused: a link entry (only regular files are allowed)");
    for (const name of ["notes.txt", "data/secrets.0001.ndjson", "data/records.1.ndjson"]) {
      expect(message(name)).toStartWith("Refused: not a file of the format");
    }

    const after = await problemsOf([...files, file("topics/late.md")]);
    expect(after).toEqual([{
      file: "topics/late.md",
      line: null,
      path: "",
      message: "Refused: it comes after manifest.json, which must be the last entry",
    }]);

    const truncated = await problemsOf(files.slice(0, -1));
    expect(truncated).toEqual([
      { file: "manifest.json", line: null, path: "", message: "Missing: the archive is incomplete (the manifest is its last entry)" },
    ]);
  });

  test("data files out of replay order are refused", async () => {
    const files = await untar((await written()).gz);
    const i = files.findIndex((f) => f.header.name === "data/areas.0001.ndjson");
    const j = files.findIndex((f) => f.header.name === "data/repos.0001.ndjson");
    [files[i], files[j]] = [files[j]!, files[i]!];
    expect(await problemsOf(files)).toContainEqual({
      file: "data/areas.0001.ndjson",
      line: null,
      path: "",
      message: "Out of order: repos came before it (kinds come in replay order)",
    });
  });

  test("it stops at the first 100 problems and says the list is cut", async () => {
    const fixture = archiveWorkspace();
    const bad = Array.from(
      { length: 150 },
      (_, i) => ({ ...fixture.all.entities[0]!, id: `0196aaaa-0000-7000-8000-${String(i).padStart(12, "0")}`, kind: 7 }),
    );
    const files = await untar(await bytesOf(writeWorkspaceArchive({ ...fixture, lines: { ...fixture.lines, entities: [] } })));
    const manifest = JSON.parse(fileText(files, "manifest.json"));
    files.splice(files.length - 1, 0, {
      header: { name: "data/entities.0001.ndjson", size: 0 },
      data: new TextEncoder().encode(bad.map((b) => JSON.stringify(b)).join("\n")),
    });
    setText(files, "manifest.json", JSON.stringify(manifest));
    const v = await verifyWorkspaceArchive(streamOf(await tarGz(files)));
    expect(v.ok).toBe(false);
    if (v.ok) return;
    expect(v.problems).toHaveLength(ARCHIVE_MAX_PROBLEMS);
    expect(v.truncated).toBe(true);
  });

  test("bytes that are not a gzip'd tar are one problem, not a crash", async () => {
    const v = await verifyWorkspaceArchive(streamOf(new TextEncoder().encode("PK\u0003\u0004 a zip, not a tar.gz")));
    expect(v).toMatchObject({
      ok: false,
      problems: [{ file: "", line: null, path: "", message: expect.stringMatching(/cannot be read as a gzip'd tar/) }],
    });
  });

  test("a gzip that expands past the bound is refused", async () => {
    const { gz } = await written();
    const v = await verifyWorkspaceArchive(streamOf(gz), { maxTarBytes: 4096 });
    expect(v.ok).toBe(false);
    if (!v.ok) expect(v.problems.at(-1)!.message).toMatch(/expands to more than 4096 bytes/);
  });
});

describe("readWorkspaceArchive()", () => {
  test("bytes that changed between the passes throw before any line of the changed file is yielded", async () => {
    const { gz } = await written();
    const v = await verifyWorkspaceArchive(streamOf(gz));
    if (!v.ok) throw new Error("not verified");
    const files = await untar(gz);
    editLines(files, "data/records.0001.ndjson", (r) => ({ ...r, status: "won" }));
    const seen: ArchiveKind[] = [];
    let error: unknown;
    try {
      for await (const r of readWorkspaceArchive(streamOf(await tarGz(files)), v.manifest)) seen.push(r.kind);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ArchiveChangedError);
    expect((error as Error).message).toBe("The archive changed since it was verified: data/records.0001.ndjson has another size");
    expect(seen).toContain("entities");
    expect(seen).not.toContain("records");
  });
});

describe("the format's data", () => {
  const props = (kind: ArchiveKind) => (ARCHIVE_LINE_SCHEMAS[kind] as unknown as { properties: Record<string, unknown> }).properties;

  test("every reference names a field its kind's line has, and a field of the kind it names", () => {
    for (const ref of ARCHIVE_REFERENCES) {
      const first = ref.path.split(".")[0]!.replace("[]", "");
      expect(props(ref.from)).toHaveProperty(first);
      expect(props(ref.to)).toHaveProperty(ref.field);
    }
  });

  test("every checked reference points back in replay order unless marked forward", () => {
    for (const ref of ARCHIVE_REFERENCES.filter((r) => (r.rule === "required" || r.rule === "optional") && !r.forward)) {
      expect(`${ref.from} → ${ref.to}: ${ARCHIVE_KINDS.indexOf(ref.to) <= ARCHIVE_KINDS.indexOf(ref.from)}`).toBe(
        `${ref.from} → ${ref.to}: true`,
      );
    }
  });

  test("every line schema refuses a field it does not declare", () => {
    for (const kind of ARCHIVE_KINDS) {
      expect((ARCHIVE_LINE_SCHEMAS[kind] as { additionalProperties?: unknown }).additionalProperties).toBe(false);
    }
  });
});
