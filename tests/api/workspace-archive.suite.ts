import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "fflate";
import { packTar, unpackTar } from "modern-tar";
import { withAuthCache } from "../../adapters/cache/cached-stores.ts";
import { createLocalInvalidationBus } from "../../adapters/cache/invalidation-bus.ts";
import { createOutboxMailer } from "../../adapters/mail/nodemailer.ts";
import { createMemoryJobQueue } from "../../adapters/memory/job-queue.ts";
import { mailHooks } from "../../core/mail/hooks.ts";
import {
  ARCHIVE_KIND_IO,
  ARCHIVE_KIND_RULES,
  ARCHIVE_KINDS,
  type ArchiveKind,
  type ArchiveLine,
  type ArchiveManifest,
  entityFieldsOf,
  importedId,
  readWorkspaceArchive,
  rewriteReferences,
  verifyWorkspaceArchive,
  writeWorkspaceArchive,
} from "../../core/portability/mod.ts";
import type { Stores } from "../../core/stores.ts";
import { jobRunner } from "../../workers/registry.ts";
import { type Personas, personas } from "../support/personas.ts";
import { makeTestApp, TEST_SECRET, type TestApp } from "../support/test-app.ts";

type Bytes = Uint8Array<ArrayBuffer>;
const OPERATOR = "op_" + "x".repeat(40);

const streamOf = (bytes: Uint8Array) => new Blob([bytes as Bytes]).stream();

/** Every data line of an archive, per kind, after verifying it as the import does. */
export async function archiveLines(bytes: Uint8Array): Promise<{ manifest: ArchiveManifest; kinds: Map<ArchiveKind, any[]> }> {
  const v = await verifyWorkspaceArchive(streamOf(bytes));
  if (!v.ok) throw new Error(`archive invalid: ${JSON.stringify(v.problems.slice(0, 3))}`);
  const kinds = new Map<ArchiveKind, any[]>();
  for await (const rec of readWorkspaceArchive(streamOf(bytes), v.manifest)) {
    kinds.set(rec.kind, [...(kinds.get(rec.kind) ?? []), rec.value]);
  }
  return { manifest: v.manifest, kinds };
}

/** The tar's entries, by name, in order. */
async function entriesOf(bytes: Uint8Array): Promise<{ name: string; data: Uint8Array }[]> {
  return (await unpackTar(gunzipSync(bytes))).map((e) => ({ name: e.header.name, data: e.data ?? new Uint8Array() }));
}

async function repack(entries: { name: string; data: Uint8Array }[]): Promise<Bytes> {
  return gzipSync(
    await packTar(entries.map((e) => ({ header: { name: e.name, size: e.data.length, type: "file" as const }, body: e.data }))),
  );
}

const sha256 = async (b: Uint8Array) =>
  Array.from(new Uint8Array(await crypto.subtle.digest("SHA-256", b as Bytes)), (x) => x.toString(16).padStart(2, "0")).join("");

/** `file` replaced by `text`, the manifest's size and hash of it updated (a well-formed archive with other content). */
async function withFile(bytes: Uint8Array, file: string, text: string, lines?: number): Promise<Bytes> {
  const entries = await entriesOf(bytes);
  const data = new TextEncoder().encode(text);
  const manifestEntry = entries.find((e) => e.name === "manifest.json")!;
  const manifest = JSON.parse(new TextDecoder().decode(manifestEntry.data));
  const f = manifest.files.find((x: { path: string }) => x.path === file);
  f.bytes = data.length;
  f.sha256 = await sha256(data);
  if (lines !== undefined) {
    f.lines = lines;
    const kind = file.slice(5).split(".")[0]!;
    manifest.kinds[kind].count = lines;
  }
  manifestEntry.data = new TextEncoder().encode(JSON.stringify(manifest));
  entries.find((e) => e.name === file)!.data = data;
  return repack(entries);
}

async function bytesOf(stream: ReadableStream<Uint8Array>): Promise<Bytes> {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** An archive as another server would make it: a workspace line and members. */
async function handMadeArchive(members: ArchiveLine<"members">[], slug = "elsewhere"): Promise<Bytes> {
  const at = "2026-05-01T10:00:00.000Z";
  return bytesOf(writeWorkspaceArchive({
    serviceVersion: "0.1.0",
    exportedAt: at,
    consistency: "snapshot",
    workspace: {
      id: "0196a000-0000-7000-8000-000000000001",
      slug,
      name: "Elsewhere",
      plan: "free",
      settings: { review_interval_days: 90 },
      created_at: at,
      updated_at: at,
    },
    lines: { members },
  }));
}

const member = (n: number, email: string, role: "owner" | "admin" | "member" = "member"): ArchiveLine<"members"> => ({
  id: `0196a000-0000-7000-8000-${String(100 + n).padStart(12, "0")}`,
  identity_id: `0196a000-0000-7000-8000-${String(200 + n).padStart(12, "0")}`,
  email,
  name: `Person ${n}`,
  role,
  created_at: "2026-05-01T10:00:00.000Z",
  updated_at: "2026-05-01T10:00:00.000Z",
});

/**
 * A line's identity for comparing two exports: remappable ids of `from` through `map` (as the
 * import derives them), so the first export, mapped, equals the second line for line.
 */
export function mapLines(kinds: Map<ArchiveKind, any[]>, map: (kind: ArchiveKind, id: string) => string): Map<ArchiveKind, string[]> {
  const held = new Map<ArchiveKind, Set<string>>();
  for (const [kind, lines] of kinds) {
    if (ARCHIVE_KIND_RULES[kind].remappable) held.set(kind, new Set(lines.map((l) => l.id)));
  }
  const entityFields = new Map<string, Set<string>>();
  for (const c of kinds.get("collections") ?? []) {
    entityFields.set(c.id, entityFieldsOf(c.record_schema ?? {}));
    entityFields.set(map("collections", c.id), entityFieldsOf(c.record_schema ?? {}));
  }
  const ctx = { entityFields: (id: string) => entityFields.get(id) };
  const out = new Map<ArchiveKind, string[]>();
  for (const [kind, lines] of kinds) {
    if (kind === "workspace" || kind === "members") continue;
    out.set(
      kind,
      lines.map((l) => {
        const line = rewriteReferences(kind, l, (ref, value) => {
          if (ref.rule === "person" || ref.field !== "id") return undefined;
          return held.get(ref.to)?.has(value) ? map(ref.to, value) : undefined;
        }, ctx) as Record<string, unknown>;
        if (ARCHIVE_KIND_RULES[kind].remappable) line.id = map(kind, line.id as string);
        return JSON.stringify(line, Object.keys(line).sort());
      }).sort(),
    );
  }
  return out;
}

/**
 * The workspace archive over HTTP (issue #25, ADR 068), on the backend `open` gives: export
 * (headers, authorization, secrets), import (IMPORT_INVALID, 413, dry run, members invited,
 * idempotence, the ledger untouched) and the round trip export → import into a new workspace →
 * export, compared line for line.
 */
export function runWorkspaceArchiveSuite(name: string, open: () => Promise<Stores>) {
  describe(name, () => {
    let t: TestApp;
    let small: TestApp;
    let stores: Stores;
    let p: Personas;
    let outbox: string;
    const queue = createMemoryJobQueue(() => {});
    const slug = "archive-src";

    beforeAll(async () => {
      stores = withAuthCache(await open(), createLocalInvalidationBus());
      outbox = mkdtempSync(join(tmpdir(), "archive-outbox-"));
      const core = {
        jobs: queue,
        mail: { mailer: createOutboxMailer(outbox, "KB <kb@example.com>"), publicUrl: "https://kb.example.com", secret: TEST_SECRET },
        ...mailHooks,
      };
      t = await makeTestApp(stores, { platformAdminKey: OPERATOR, core });
      small = await makeTestApp(stores, { importLimitBytes: 1024, core });
      queue.consume(jobRunner(() => t.core));
      p = await personas(t, slug);
      await seed(p.owner, slug);
    }, 120_000);
    afterAll(async () => {
      await queue.close();
      rmSync(outbox, { recursive: true, force: true });
    });

    async function mailTo(to: string): Promise<string[]> {
      await queue.drain();
      return readdirSync(outbox).filter((f) => f.endsWith(".eml")).map((f) => readFileSync(join(outbox, f), "utf8"))
        .filter((m) => new RegExp(`^To: ${to.replace(/[.+]/g, "\\$&")}$`, "mi").test(m));
    }

    const ok = async (res: Promise<{ status: number; body: any }>, status = 201) => {
      const r = await res;
      if (r.status !== status) throw new Error(`${r.status} ${JSON.stringify(r.body)}`);
      return r.body;
    };

    /** Something of every kind the API makes, so that every kind with IO has lines. */
    async function seed(key: string, ws: string) {
      const base = `/workspaces/${ws}`;
      const area = await ok(t.call("POST", `${base}/areas`, { key, body: { name: "Platform", description: "infra" } }));
      await ok(t.call("POST", `${base}/areas`, { key, body: { name: "Sales" } }));
      await ok(t.call("POST", `${base}/topics`, {
        key,
        body: { title: "Deploy runbook", body: "# Deploy\n\nRun it.", tags: ["ops", "deploy"], area_id: area.id },
      }));
      const second = await ok(t.call("POST", `${base}/topics`, { key, body: { title: "On call", body: "Who wakes up.", tags: ["ops"] } }));
      await ok(
        t.call("PATCH", `${base}/topics/${second.slug}`, {
          key,
          body: { body: "Who wakes up, and when." },
          headers: { "if-match": `"${second.version}"` },
        }),
        200,
      ).catch(() => null);
      const c = await ok(t.call("POST", `${base}/collections`, {
        key,
        body: {
          name: "Deals",
          archetype: "pipeline",
          record_schema: { fields: { company: { type: "string", required: true }, amount: { type: "number" } } },
        },
      }));
      for (let i = 0; i < 5; i++) {
        await ok(t.call("POST", `${base}/collections/${c.id}/records`, { key, body: { fields: { company: `Co ${i}`, amount: i * 10 } } }));
      }
      await ok(t.call("POST", `${base}/radar/credits/grant`, { key: OPERATOR, body: { amount: 500 } }));
    }

    async function exportOf(key: string, ws = slug) {
      const res = await t.app.handle(new Request(`http://localhost/api/v1/workspaces/${ws}/export`, { headers: { "x-api-key": key } }));
      return { res, bytes: res.status === 200 ? new Uint8Array(await res.arrayBuffer()) : null };
    }

    async function importInto(key: string, ws: string, bytes: Uint8Array, q = "", app: TestApp = t) {
      const res = await app.app.handle(
        new Request(`http://localhost/api/v1/workspaces/${ws}/import${q}`, {
          method: "POST",
          headers: { "x-api-key": key, "content-type": "application/gzip", "content-length": String(bytes.length) },
          body: bytes as Bytes,
        }),
      );
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    }

    const membersOf = async (key: string, ws: string) =>
      (await ok(t.call("GET", `/workspaces/${ws}/members?limit=100`, { key }), 200)).members as { email: string; role: string }[];

    test("export: owner and admin get a streamed gzip with its file name; the archive verifies and names the workspace", async () => {
      for (const key of [p.owner, p.admin]) {
        const { res, bytes } = await exportOf(key);
        expect(res.status).toBe(200);
        expect(res.headers.get("content-type")).toBe("application/gzip");
        expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="archive-src-\d{8}T\d{6}Z\.wks\.tar\.gz"$/);
        expect(res.headers.get("cache-control")).toBe("no-store");
        const { manifest, kinds } = await archiveLines(bytes!);
        expect(manifest.workspace.slug).toBe(slug);
        expect(manifest.consistency).toBe(res.headers.get("x-archive-consistency") as "snapshot" | "per_kind");
        expect(manifest.consistency).toBe(stores.snapshot ? "snapshot" : "per_kind");
        expect(kinds.get("workspace")).toHaveLength(1);
        // Every kind with IO that the seed made is in it.
        for (const kind of ["members", "areas", "topics", "records", "credit_ledger"] as const) {
          if (ARCHIVE_KIND_IO[kind]) expect(kinds.get(kind)?.length ?? 0).toBeGreaterThan(0);
        }
      }
    });

    test("export: members, service keys, other workspaces and anonymous callers are refused", async () => {
      const other = await t.bootstrap("archive-other");
      expect((await exportOf(p.member)).res.status).toBe(403);
      expect((await exportOf(p.service)).res.status).toBe(403);
      expect((await exportOf(other.key)).res.status).toBe(404);
      expect((await exportOf("")).res.status).toBe(401);
    });

    test("export: no API key, key hash or webhook secret is in the archive", async () => {
      const { bytes } = await exportOf(p.owner);
      const text = new TextDecoder().decode(gunzipSync(bytes!));
      for (const key of [p.owner, p.admin, p.member, p.service]) {
        expect(text).not.toContain(key);
        expect(text).not.toContain(key.slice(-16));
      }
      expect(text).not.toMatch(/key_hash|secret|sealed|token"/);
    });

    test("export: a reader that stops early ends the export; the store serves the next request", async () => {
      const res = await t.app.handle(
        new Request(`http://localhost/api/v1/workspaces/${slug}/export`, { headers: { "x-api-key": p.owner } }),
      );
      const reader = res.body!.getReader();
      await reader.read();
      await reader.cancel();
      // On the embedded store a snapshot holds the one connection: a write after the cancel must not wait for ever.
      await ok(t.call("POST", `/workspaces/${slug}/areas`, { key: p.owner, body: { name: "After cancel" } }));
    });

    test("export under a concurrent writer: every record whole; on a snapshot its history ends at its version", async () => {
      const base = `/workspaces/${slug}`;
      const schema = { fields: { a: { type: "integer" }, b: { type: "integer" } } };
      const c = await ok(
        t.call("POST", `${base}/collections`, {
          key: p.owner,
          body: { name: "Consistency", archetype: "pipeline", record_schema: schema },
        }),
      );
      const ids: string[] = [];
      for (let i = 0; i < 8; i++) {
        ids.push((await ok(t.call("POST", `${base}/collections/${c.id}/records`, { key: p.owner, body: { fields: { a: 0, b: 0 } } }))).id);
      }
      for (let round = 0; round < 20; round++) {
        let stop = false;
        let n = 0;
        const writer = (async () => {
          while (!stop) {
            n++;
            // A turn of the event loop each time: an in-process writer must not starve the export's streams.
            await Bun.sleep(0);
            // Both fields in one write: an archive holding one without the other would be half a write.
            await t.call("PATCH", `${base}/collections/${c.id}/records/${ids[n % ids.length]}`, {
              key: p.owner,
              body: { fields: { a: n, b: n } },
            });
          }
        })();
        await Bun.sleep(1);
        const { bytes } = await exportOf(p.owner);
        stop = true;
        await writer;
        const { manifest, kinds } = await archiveLines(bytes!);
        const records = (kinds.get("records") ?? []).filter((r) => r.collection_id === c.id);
        expect(records).toHaveLength(ids.length);
        const history = (kinds.get("record_history") ?? []).filter((h) => h.collection_id === c.id);
        for (const r of records) {
          expect(r.fields.a).toBe(r.fields.b);
          const top = Math.max(...history.filter((h) => h.record_id === r.id).map((h) => h.version as number));
          // One moment for every kind: the history is as of the record; each kind its own moment: as of later.
          if (manifest.consistency === "snapshot") expect(top).toBe(r.version);
          else expect(top).toBeGreaterThanOrEqual(r.version);
        }
      }
    }, 120_000);

    test("import: only the owner; admins, members and other workspaces are refused before the body is read", async () => {
      const archive = await handMadeArchive([]);
      const other = await t.bootstrap("archive-other2");
      expect((await importInto(p.admin, slug, archive)).status).toBe(403);
      expect((await importInto(p.member, slug, archive)).status).toBe(403);
      expect((await importInto(other.key, slug, archive)).status).toBe(404);
    });

    test("import: IMPORT_INVALID for a changed file (hash), a bad line, and at most 100 problems; nothing written", async () => {
      const target = await t.bootstrap("archive-invalid");
      const archive = await handMadeArchive([member(1, "one@example.com")]);
      const before = await membersOf(target.key, target.slug);

      // A byte changed after the manifest was written.
      const entries = await entriesOf(archive);
      const part = entries.find((e) => e.name === "data/members.0001.ndjson")!;
      part.data = new TextEncoder().encode(new TextDecoder().decode(part.data).replace("Person 1", "Person X"));
      const changed = await importInto(target.key, target.slug, await repack(entries));
      expect(changed.status).toBe(400);
      expect(changed.body.error.code).toBe("IMPORT_INVALID");
      expect(changed.body.error.archive_problems.some((x: any) => x.file === "data/members.0001.ndjson" && /SHA-256/.test(x.message)))
        .toBe(true);

      // A line with a field the kind does not have (hashes right).
      const bad = JSON.stringify({ ...member(1, "one@example.com"), api_key: "nope" });
      const badLine = await importInto(target.key, target.slug, await withFile(archive, "data/members.0001.ndjson", `${bad}\n`));
      expect(badLine.status).toBe(400);
      expect(badLine.body.error.archive_problems[0]).toMatchObject({ file: "data/members.0001.ndjson", line: 1 });
      expect(badLine.body.error.details[0].path).toStartWith("data/members.0001.ndjson:1");

      // 150 bad lines: the first 100 problems, and `truncated`.
      const many = Array.from({ length: 150 }, (_, i) => JSON.stringify({ ...member(i, `p${i}@example.com`), role: "king" })).join("\n");
      const capped = await importInto(target.key, target.slug, await withFile(archive, "data/members.0001.ndjson", `${many}\n`, 150));
      expect(capped.status).toBe(400);
      expect(capped.body.error.archive_problems).toHaveLength(100);
      expect(capped.body.error.truncated).toBe(true);

      // Not an archive at all.
      const junk = await importInto(target.key, target.slug, new TextEncoder().encode("not a tar"));
      expect(junk.status).toBe(400);
      expect(junk.body.error.code).toBe("IMPORT_INVALID");

      expect(await membersOf(target.key, target.slug)).toEqual(before);
      expect(await mailTo("one@example.com")).toEqual([]);
    });

    test("import: a body over IMPORT_LIMIT_BYTES is a 413, nothing written", async () => {
      const target = await t.bootstrap("archive-large");
      const archive = await handMadeArchive(Array.from({ length: 60 }, (_, i) => member(i, `large${i}@example.com`)));
      expect(archive.length).toBeGreaterThan(1024);
      const res = await importInto(target.key, target.slug, archive, "", small);
      expect(res.status).toBe(413);
      expect(res.body.error.code).toBe("PAYLOAD_TOO_LARGE");
      expect(await membersOf(target.key, target.slug)).toHaveLength(1);
    });

    test("import: a dry run answers the plan and writes nothing; the import invites missing members by e-mail, never with a key", async () => {
      const target = await t.bootstrap("archive-people", "boss@example.com");
      const archive = await handMadeArchive([
        member(1, "boss@example.com", "owner"),
        member(2, "New.Person@example.com", "admin"),
        member(3, "third@example.com", "member"),
      ]);
      const dry = await importInto(target.key, target.slug, archive, "?dry_run=true");
      expect(dry.status).toBe(201);
      expect(dry.body.dry_run).toBe(true);
      expect(dry.body.kinds.members).toMatchObject({ created: 2, unchanged: 1, skipped: 0 });
      expect(dry.body.kinds.workspace).toMatchObject({ skipped: 1 });
      expect(dry.body.kinds.workspace.reasons[0].reason).toMatch(/keeps its own/);
      expect(dry.body.invited).toEqual(["new.person@example.com", "third@example.com"]);
      expect(dry.body.ledger).toBe("history only: balance untouched");
      expect(await membersOf(target.key, target.slug)).toHaveLength(1);
      expect(await mailTo("third@example.com")).toEqual([]);

      const real = await importInto(target.key, target.slug, archive);
      expect(real.status).toBe(201);
      expect({ ...real.body, dry_run: true }).toEqual(dry.body);
      const members = await membersOf(target.key, target.slug);
      expect(members.map((m) => [m.email, m.role]).sort()).toEqual([
        ["boss@example.com", "owner"],
        ["new.person@example.com", "admin"],
        ["third@example.com", "member"],
      ]);
      expect(await mailTo("third@example.com")).toHaveLength(1);
      // Invited, never given a key: the workspace's keys are still the owner's one.
      const keys = await ok(t.call("GET", `/workspaces/${target.slug}/api-keys`, { key: target.key }), 200);
      expect(keys.api_keys ?? keys.keys ?? keys.items).toHaveLength(1);

      // Again: everything unchanged; a role that differs here is kept and said so.
      await ok(
        t.call("PATCH", `/workspaces/${target.slug}/members/${(members as any).find((m: any) => m.email === "third@example.com").id}`, {
          key: target.key,
          body: { role: "admin" },
        }),
        200,
      );
      const again = await importInto(target.key, target.slug, archive);
      expect(again.body.kinds.members).toMatchObject({ created: 0, unchanged: 2, skipped: 1 });
      expect(again.body.kinds.members.reasons[0]).toMatchObject({ outcome: "skipped", keys: ["third@example.com"] });
      expect(again.body.invited).toEqual([]);
      expect(await mailTo("third@example.com")).toHaveLength(1);
    });

    test("natural keys: an area and a topic the target holds by name and slug are those objects, never overwritten", async () => {
      const created = await ok(t.call("POST", "/workspaces", { key: p.owner, body: { slug: "archive-natural" } }));
      const key = created.api_key.key as string;
      const base = "/workspaces/archive-natural";
      const area = await ok(t.call("POST", `${base}/areas`, { key, body: { name: "Platform", description: "ours" } }));
      const topic = await ok(t.call("POST", `${base}/topics`, { key, body: { title: "Deploy runbook", body: "Our own text." } }));
      expect(topic.slug).toBe("deploy-runbook");

      const report = (await importInto(key, "archive-natural", (await exportOf(p.owner)).bytes!)).body;
      if (ARCHIVE_KIND_IO.areas) {
        expect(report.kinds.areas.skipped).toBe(1);
        expect(report.kinds.areas.reasons[0]).toMatchObject({ outcome: "skipped", reason: expect.stringMatching(/another version/) });
        const areas = (await ok(t.call("GET", `${base}/areas`, { key }), 200)).areas;
        expect(areas.filter((a: { name: string }) => a.name === "Platform")).toEqual([
          expect.objectContaining({ id: area.id, description: "ours" }),
        ]);
      }
      if (ARCHIVE_KIND_IO.topics) {
        expect(report.kinds.topics.skipped).toBe(1);
        const kept = await ok(t.call("GET", `${base}/topics/deploy-runbook`, { key }), 200);
        expect(kept).toMatchObject({ id: topic.id, body: "Our own text." });
        // Its changes in the archive are another topic's: not added to this one's history.
        expect(report.kinds.topic_history.reasons).toContainEqual(
          expect.objectContaining({ outcome: "skipped", reason: expect.stringMatching(/its object was skipped/) }),
        );
      }
      const again = (await importInto(key, "archive-natural", (await exportOf(p.owner)).bytes!)).body;
      for (const kind of ARCHIVE_KINDS) {
        if (ARCHIVE_KIND_IO[kind] && kind !== "workspace") {
          expect({ kind, created: again.kinds[kind].created }).toEqual({ kind, created: 0 });
        }
      }
    }, 120_000);

    test(
      "round trip: export, import into a new workspace, export again: equal data, line for line; a second import changes nothing; the ledger leaves the balance",
      async () => {
        const first = await archiveLines((await exportOf(p.owner)).bytes!);
        // A new workspace of the same owner (an existing person creates one with their key).
        const created = await ok(t.call("POST", "/workspaces", { key: p.owner, body: { slug: "archive-copy" } }));
        const target = { slug: "archive-copy", key: created.api_key.key as string, body: created };
        const targetId = target.body.workspace.id as string;
        const balance = async () => (await ok(t.call("GET", `/workspaces/${target.slug}/radar/credits`, { key: target.key }), 200)).balance;
        const before = await balance();

        const report = (await importInto(target.key, target.slug, (await exportOf(p.owner)).bytes!)).body;
        expect(report.ledger).toBe("history only: balance untouched");
        for (const kind of ARCHIVE_KINDS) {
          const n = first.kinds.get(kind)?.length ?? 0;
          const r = report.kinds[kind];
          expect(r.created + r.updated + r.unchanged + r.skipped).toBe(n);
          if (ARCHIVE_KIND_IO[kind] && kind !== "members" && kind !== "workspace") expect(r).toMatchObject({ created: n, skipped: 0 });
        }
        expect(await balance()).toBe(before);

        const second = await archiveLines((await exportOf(target.key, target.slug)).bytes!);
        // The archive's workspace lives on this server: new objects got derived ids.
        const map = (kind: ArchiveKind, id: string) => importedId(targetId, kind, id);
        const expected = mapLines(first.kinds, map);
        const actual = mapLines(second.kinds, (_k, id) => id);
        for (const kind of ARCHIVE_KINDS) {
          if (kind === "workspace" || kind === "members" || !ARCHIVE_KIND_IO[kind]) continue;
          expect({ kind, lines: actual.get(kind) ?? [] }).toEqual({ kind, lines: expected.get(kind) ?? [] });
        }
        const people = (k: Map<ArchiveKind, any[]>) => (k.get("members") ?? []).map((m) => `${m.email} ${m.role} ${m.name}`).sort();
        if (ARCHIVE_KIND_IO.members) expect(people(second.kinds)).toEqual(people(first.kinds));

        const again = (await importInto(target.key, target.slug, (await exportOf(p.owner)).bytes!)).body;
        for (const kind of ARCHIVE_KINDS) {
          if (!ARCHIVE_KIND_IO[kind] || kind === "workspace") continue;
          expect({ kind, ...again.kinds[kind] }).toMatchObject({ kind, created: 0, updated: 0, skipped: 0 });
        }
        expect(await balance()).toBe(before);
      },
      120_000,
    );
  });
}
