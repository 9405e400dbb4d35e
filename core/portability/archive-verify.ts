import { Value } from "@sinclair/typebox/value";
import type { ParsedTarEntry } from "modern-tar";
import { schemaErrorDetails } from "../kernel/schema-errors.ts";
import { parseArchivePath } from "./archive-paths.ts";
import type { ArchiveLine } from "./lines.ts";
import { lineProblems } from "./line-check.ts";
import { type ArchiveFileEntry, ArchiveManifest } from "./manifest.ts";
import {
  ARCHIVE_FORMAT,
  ARCHIVE_FORMAT_VERSION,
  ARCHIVE_KINDS,
  ARCHIVE_MANIFEST_PATH,
  ARCHIVE_MAX_MANIFEST_BYTES,
  ARCHIVE_MAX_MARKDOWN_BYTES,
  ARCHIVE_MAX_PROBLEMS,
  ARCHIVE_PART_BYTES,
  type ArchiveKind,
  type ArchiveProblem,
} from "./model.ts";
import { ARCHIVE_REFERENCES, entityFieldsOf, type ReferenceContext, referencesIn } from "./references.ts";
import { KeySet } from "./key-set.ts";
import { sha256Hex } from "./sha256.ts";
import { forEachTarEntry, ndjsonLines, readBody } from "./tar-entries.ts";

/** Past this many bytes of tar (uncompressed), a reader gives up: 16 GiB, far past any upload limit. */
export const ARCHIVE_MAX_TAR_BYTES = 16 * 1024 ** 3;

export interface ArchiveReadOptions {
  /** The most bytes the gzip may expand to (default 16 GiB). */
  maxTarBytes?: number;
}

export type ArchiveVerification =
  | { ok: true; manifest: ArchiveManifest; problems: [] }
  | { ok: false; manifest: ArchiveManifest | null; problems: ArchiveProblem[]; truncated: boolean };

/**
 * The first pass over an archive, which writes nothing: it reads every entry once, hashes every
 * file, checks every line against its kind's schema and every reference between kinds, then
 * checks the manifest (the last entry) against what it saw: format and version, each file's
 * size and SHA-256, each kind's count and parts. Answers the manifest when all holds, else the
 * first 100 problems. Holds at once: one entry, the ids other kinds reference (to check
 * references as lines pass), and a hash per file.
 */
export async function verifyWorkspaceArchive(
  gz: ReadableStream<Uint8Array>,
  options: ArchiveReadOptions = {},
): Promise<ArchiveVerification> {
  const v = new Verifier();
  try {
    await forEachTarEntry(gz, options.maxTarBytes ?? ARCHIVE_MAX_TAR_BYTES, (entry) => v.entry(entry));
    v.finish();
  } catch (e) {
    if (!(e instanceof TooManyProblems)) {
      try {
        v.add({ file: v.current, line: null, path: "", message: `The archive cannot be read as a gzip'd tar: ${(e as Error).message}` });
      } catch { /* the 100th problem */ }
    }
  }
  return v.result();
}

class TooManyProblems extends Error {}

/** The (kind, field) pairs a `required` or `optional` reference names: their values are kept to check references. */
const CHECKED = ARCHIVE_REFERENCES.filter((r) => r.rule === "required" || r.rule === "optional");
const TARGET_FIELDS = new Map<ArchiveKind, string[]>();
for (const r of CHECKED) {
  const fields = TARGET_FIELDS.get(r.to) ?? [];
  if (!fields.includes(r.field)) TARGET_FIELDS.set(r.to, [...fields, r.field]);
}
const KIND_INDEX = new Map<ArchiveKind, number>(ARCHIVE_KINDS.map((k, i) => [k, i]));

interface Pending {
  to: ArchiveKind;
  field: string;
  value: string;
  file: string;
  line: number;
  path: string;
}

class Verifier implements ReferenceContext {
  readonly problems: ArchiveProblem[] = [];
  current = "";
  private versionProblem: ArchiveProblem | null = null;
  private manifest: ArchiveManifest | null = null;
  private manifestSeen = false;
  private readonly seen = new Map<string, ArchiveFileEntry>();
  private readonly counts = new Map<ArchiveKind, number>();
  private readonly parts = new Map<ArchiveKind, string[]>();
  private lastData: { kind: number; part: number } | null = null;
  private readonly targets = new Map<string, KeySet>();
  private readonly pending: Pending[] = [];
  private readonly entityFieldsByCollection = new Map<string, Set<string>>();
  private lastSeq = 0;
  private workspace: ArchiveLine<"workspace"> | null = null;
  private readonly decoder = new TextDecoder("utf-8", { fatal: true });

  add(p: ArchiveProblem): void {
    this.problems.push(p);
    if (this.problems.length >= ARCHIVE_MAX_PROBLEMS) throw new TooManyProblems();
  }

  entityFields(collectionId: string): ReadonlySet<string> | undefined {
    return this.entityFieldsByCollection.get(collectionId);
  }

  async entry({ header, body }: ParsedTarEntry): Promise<void> {
    const name = header.name;
    this.current = name;
    const skip = async (message: string) => {
      await body.cancel();
      this.add({ file: name, line: null, path: "", message });
    };
    const where = parseArchivePath(name);
    if (where.type === "unsafe") return skip(`Refused: ${where.reason}`);
    const type = header.type ?? "file";
    if (where.type === "folder" && type === "directory") return void (await body.cancel());
    if (type !== "file") return skip(`Refused: a ${type} entry (only regular files are allowed)`);
    if (where.type === "unknown" || where.type === "folder") {
      return skip("Refused: not a file of the format (manifest.json, data/<kind>.<NNNN>.ndjson, topics/<slug>.md)");
    }
    if (this.manifestSeen) return skip(`Refused: it comes after ${ARCHIVE_MANIFEST_PATH}, which must be the last entry`);
    if (this.seen.has(name)) return skip("Refused: the name appears twice");

    if (where.type === "manifest") {
      this.manifestSeen = true;
      if (header.size > ARCHIVE_MAX_MANIFEST_BYTES) return skip(`Too large: more than ${ARCHIVE_MAX_MANIFEST_BYTES} bytes`);
      return this.readManifest(await readBody(body, header.size));
    }
    const max = where.type === "data" ? ARCHIVE_PART_BYTES : ARCHIVE_MAX_MARKDOWN_BYTES;
    if (header.size > max) return skip(`Too large: ${header.size} bytes, more than ${max}`);
    let bytes: Uint8Array | null = await readBody(body, header.size);
    const file: ArchiveFileEntry = { path: name, bytes: bytes.length, sha256: await sha256Hex(bytes) };
    this.seen.set(name, file);
    if (where.type !== "data") return;
    this.checkOrder(name, where.kind, where.part);
    let text: string;
    try {
      text = this.decoder.decode(bytes);
    } catch {
      return this.add({ file: name, line: null, path: "", message: "Not UTF-8 text" });
    }
    bytes = null; // the text is what is read from here on: one copy of the part, not two
    file.lines = this.readData(name, where.kind, text);
  }

  private checkOrder(file: string, kind: ArchiveKind, part: number): void {
    const k = KIND_INDEX.get(kind)!;
    const last = this.lastData;
    this.lastData = { kind: k, part };
    this.parts.set(kind, [...(this.parts.get(kind) ?? []), file]);
    const expected = last && last.kind === k ? last.part + 1 : 1;
    if (last && last.kind > k) {
      this.add({
        file,
        line: null,
        path: "",
        message: `Out of order: ${ARCHIVE_KINDS[last.kind]} came before it (kinds come in replay order)`,
      });
    } else if (part !== expected) {
      this.add({ file, line: null, path: "", message: `Out of order: part ${expected} of ${kind} was expected here` });
    }
  }

  private readData(file: string, kind: ArchiveKind, text: string): number {
    let lines = 0;
    for (const [n, raw] of ndjsonLines(text)) {
      lines = n;
      this.counts.set(kind, (this.counts.get(kind) ?? 0) + 1);
      if (raw.trim() === "") {
        this.add({ file, line: n, path: "", message: "An empty line (each line holds one JSON object)" });
        continue;
      }
      let value: unknown;
      try {
        value = JSON.parse(raw);
      } catch (e) {
        this.add({ file, line: n, path: "", message: `Not JSON: ${(e as Error).message}` });
        continue;
      }
      if (value === null || typeof value !== "object" || Array.isArray(value)) {
        this.add({ file, line: n, path: "", message: "Not a JSON object" });
        continue;
      }
      const problems = lineProblems(kind, value, 5);
      for (const p of problems) this.add({ file, line: n, path: p.path, message: p.message });
      if (problems.length === 0) this.checkLine(file, n, kind, value as Record<string, unknown>);
      // An invalid line is one problem, not one more per line that references it.
      this.register(file, n, kind, value as Record<string, unknown>);
    }
    return lines;
  }

  /** A valid line: its own rules and its references. */
  private checkLine(file: string, line: number, kind: ArchiveKind, value: Record<string, unknown>): void {
    if (kind === "workspace") this.workspace ??= value as ArchiveLine<"workspace">;
    if (kind === "credit_ledger") {
      const seq = (value as ArchiveLine<"credit_ledger">).seq;
      if (seq <= this.lastSeq) {
        this.add({ file, line, path: "/seq", message: `Out of order: ledger lines come in seq order (after ${this.lastSeq})` });
      }
      this.lastSeq = Math.max(seq, this.lastSeq);
    }
    for (const found of referencesIn(kind, value, this)) {
      const { ref } = found;
      if (ref.rule !== "required" && ref.rule !== "optional") continue;
      if (ref.forward) {
        this.pending.push({ to: ref.to, field: ref.field, value: found.value, file, line, path: found.pointer });
      } else if (!this.targets.get(`${ref.to}:${ref.field}`)?.has(found.value)) {
        this.add({ file, line, path: found.pointer, message: danglingMessage(ref.to, ref.field, found.value) });
      }
    }
  }

  /** What later lines may reference in a line (its id, a tag's name), and the entity fields of a collection. */
  private register(file: string, line: number, kind: ArchiveKind, value: Record<string, unknown>): void {
    for (const field of TARGET_FIELDS.get(kind) ?? []) {
      const key = `${kind}:${field}`;
      const set = this.targets.get(key) ?? new KeySet();
      this.targets.set(key, set);
      const id = value[field];
      if (typeof id === "string" && !set.add(id)) {
        this.add({ file, line, path: `/${field}`, message: `Duplicate: another line of ${kind} has ${field} ${id}` });
      }
    }
    if (kind === "collections" && typeof value.id === "string" && value.record_schema && typeof value.record_schema === "object") {
      this.entityFieldsByCollection.set(value.id, entityFieldsOf(value.record_schema));
    }
  }

  private readManifest(bytes: Uint8Array): void {
    const file = ARCHIVE_MANIFEST_PATH;
    let value: unknown;
    try {
      value = JSON.parse(this.decoder.decode(bytes));
    } catch (e) {
      this.add({ file, line: null, path: "", message: `Not JSON: ${(e as Error).message}` });
      return;
    }
    const m = value as Record<string, unknown> | null;
    if (m === null || typeof m !== "object" || m.format !== ARCHIVE_FORMAT) {
      this.versionProblem = { file, line: null, path: "/format", message: `Not a workspace archive: format is not "${ARCHIVE_FORMAT}"` };
      return;
    }
    if (m.format_version !== ARCHIVE_FORMAT_VERSION) {
      this.versionProblem = {
        file,
        line: null,
        path: "/format_version",
        message: `Unsupported format version ${JSON.stringify(m.format_version)}: this server reads version ${ARCHIVE_FORMAT_VERSION}`,
      };
      return;
    }
    if (!Value.Check(ArchiveManifest, value)) {
      for (const d of schemaErrorDetails(Value.Errors(ArchiveManifest, value), { limit: 20 })) {
        this.add({ file, line: null, path: d.path, message: d.message });
      }
      return;
    }
    this.manifest = value as ArchiveManifest;
  }

  /** Once every entry is read: the manifest against what was seen, and the forward references. */
  finish(): void {
    this.current = "";
    if (this.versionProblem) return;
    if (!this.manifestSeen) {
      this.add({
        file: ARCHIVE_MANIFEST_PATH,
        line: null,
        path: "",
        message: "Missing: the archive is incomplete (the manifest is its last entry)",
      });
    }
    for (const p of this.pending) {
      if (!this.targets.get(`${p.to}:${p.field}`)?.has(p.value)) {
        this.add({ file: p.file, line: p.line, path: p.path, message: danglingMessage(p.to, p.field, p.value) });
      }
    }
    if ((this.counts.get("workspace") ?? 0) !== 1) {
      this.add({ file: "data/workspace.0001.ndjson", line: null, path: "", message: "The workspace kind holds exactly one line" });
    }
    const m = this.manifest;
    if (!m) return;
    const file = ARCHIVE_MANIFEST_PATH;
    const listed = new Set<string>();
    m.files.forEach((f, i) => {
      listed.add(f.path);
      const got = this.seen.get(f.path);
      if (!got) this.add({ file: f.path, line: null, path: "", message: "Missing: the manifest lists it, the archive does not hold it" });
      else if (got.sha256 !== f.sha256 || got.bytes !== f.bytes) {
        this.add({
          file: f.path,
          line: null,
          path: "",
          message: `Hash mismatch: its SHA-256 is ${got.sha256}, the manifest says ${f.sha256} (files/${i})`,
        });
      }
    });
    for (const path of this.seen.keys()) {
      if (!listed.has(path)) this.add({ file: path, line: null, path: "", message: "Not listed in the manifest" });
    }
    for (const kind of ARCHIVE_KINDS) {
      const summary = m.kinds[kind];
      const count = this.counts.get(kind) ?? 0;
      if (summary.count !== count) {
        this.add({
          file,
          line: null,
          path: `/kinds/${kind}/count`,
          message: `The manifest counts ${summary.count} lines of ${kind}, the archive holds ${count}`,
        });
      }
      const parts = this.parts.get(kind) ?? [];
      if (summary.files.join("\n") !== parts.join("\n")) {
        this.add({ file, line: null, path: `/kinds/${kind}/files`, message: `The manifest's parts of ${kind} are not the archive's` });
      }
    }
    if (this.workspace && (this.workspace.id !== m.workspace.id || this.workspace.slug !== m.workspace.slug)) {
      this.add({ file, line: null, path: "/workspace", message: "The manifest names another workspace than data/workspace" });
    }
  }

  result(): ArchiveVerification {
    if (this.versionProblem) return { ok: false, manifest: null, problems: [this.versionProblem], truncated: false };
    if (this.problems.length === 0 && this.manifest) return { ok: true, manifest: this.manifest, problems: [] };
    return {
      ok: false,
      manifest: this.manifest,
      problems: this.problems,
      truncated: this.problems.length >= ARCHIVE_MAX_PROBLEMS,
    };
  }
}

function danglingMessage(to: ArchiveKind, field: string, value: string): string {
  return `Dangling reference: no line of ${to} has ${field} ${JSON.stringify(value)}`;
}
