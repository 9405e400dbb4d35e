import { createTarPacker, type TarPackController } from "modern-tar";
import { dataPartPath, topicMarkdownPath } from "./archive-paths.ts";
import type { ArchiveLine } from "./lines.ts";
import { lineProblems } from "./line-check.ts";
import type { ArchiveFileEntry, ArchiveKindSummary, ArchiveManifest } from "./manifest.ts";
import {
  ARCHIVE_FORMAT,
  ARCHIVE_FORMAT_VERSION,
  ARCHIVE_KINDS,
  ARCHIVE_MANIFEST_PATH,
  ARCHIVE_MAX_PARTS,
  ARCHIVE_PART_BYTES,
  type ArchiveConsistency,
  type ArchiveKind,
} from "./model.ts";
import { sha256Hex } from "./sha256.ts";
import { topicMarkdown } from "./topic-markdown.ts";

/** Lines of each kind but the workspace, as a store streams them out; a kind left out has none. */
export type ArchiveLineSources = {
  [K in Exclude<ArchiveKind, "workspace">]?: AsyncIterable<ArchiveLine<K>> | Iterable<ArchiveLine<K>>;
};

export interface ArchiveContents {
  serviceVersion: string;
  /** ISO 8601 UTC; also every entry's modification time. */
  exportedAt: string;
  consistency: ArchiveConsistency;
  workspace: ArchiveLine<"workspace">;
  lines: ArchiveLineSources;
}

export interface ArchiveWriteOptions {
  /** The most bytes of one data part (default and maximum 8 MiB); smaller only to test the part rule. */
  partBytes?: number;
  /** Write `topics/<slug>.md` beside the data (default true). */
  markdown?: boolean;
}

const INITIAL_PART_CAPACITY = 64 * 1024;

/**
 * The workspace archive as a gzip'd tar, written while it is read: each kind's lines are checked
 * against the kind's schema (a line that does not fit fails the export: an archive its own import
 * would refuse is never sent), gathered into parts of at most `partBytes`, each part hashed and
 * written as a tar entry once full; each topic's Markdown is written as it passes; the manifest
 * comes last. What is held at once: one part being filled, what the reader has not taken yet
 * (the tar packer's queue, 8 MiB), and the areas' names. A failure (a store's, a cancelled
 * response) errors the stream: the archive then has no manifest and no reader accepts it.
 */
export function writeWorkspaceArchive(contents: ArchiveContents, options: ArchiveWriteOptions = {}): ReadableStream<Uint8Array> {
  const partBytes = options.partBytes ?? ARCHIVE_PART_BYTES;
  if (!Number.isInteger(partBytes) || partBytes < 1 || partBytes > ARCHIVE_PART_BYTES) {
    throw new RangeError(`partBytes must be an integer from 1 to ${ARCHIVE_PART_BYTES}`);
  }
  const { readable, controller } = createTarPacker();
  const writer = new ArchiveWriter(controller, contents, partBytes, options.markdown ?? true);
  writer.run().catch((e) => controller.error(e));
  return readable.pipeThrough(new CompressionStream("gzip")) as ReadableStream<Uint8Array>;
}

class ArchiveWriter {
  private readonly encoder = new TextEncoder();
  private readonly mtime: Date;
  private readonly files: ArchiveFileEntry[] = [];
  private readonly kinds = {} as Record<ArchiveKind, ArchiveKindSummary>;
  private readonly areaNames = new Map<string, string>();

  constructor(
    private readonly tar: TarPackController,
    private readonly contents: ArchiveContents,
    private readonly partBytes: number,
    private readonly markdown: boolean,
  ) {
    this.mtime = new Date(contents.exportedAt);
    if (Number.isNaN(this.mtime.getTime())) throw new RangeError("exportedAt is not a date-time");
  }

  async run(): Promise<void> {
    await this.writeKind("workspace", [this.contents.workspace]);
    for (const kind of ARCHIVE_KINDS) {
      if (kind !== "workspace") await this.writeKind(kind, this.contents.lines[kind] ?? []);
    }
    await this.writeManifest();
    this.tar.finalize();
  }

  private async writeKind(kind: ArchiveKind, source: AsyncIterable<unknown> | Iterable<unknown>): Promise<void> {
    const summary: ArchiveKindSummary = { count: 0, files: [] };
    this.kinds[kind] = summary;
    let buf = new Uint8Array(Math.min(INITIAL_PART_CAPACITY, this.partBytes));
    let used = 0;
    let lines = 0;
    const flush = async () => {
      if (lines === 0) return;
      if (summary.files.length === ARCHIVE_MAX_PARTS) throw new Error(`Cannot export ${kind}: more than ${ARCHIVE_MAX_PARTS} parts`);
      const path = dataPartPath(kind, summary.files.length + 1);
      summary.files.push(path);
      // The packer may still hold these bytes until the reader takes them: the next part gets a buffer of its own.
      await this.writeFile(path, buf.subarray(0, used), lines);
      buf = new Uint8Array(Math.min(buf.length, this.partBytes));
      used = 0;
      lines = 0;
    };
    for await (const value of source) {
      const n = summary.count + 1;
      const problems = lineProblems(kind, value, 3);
      if (problems.length) {
        throw new Error(`Cannot export ${kind} line ${n}: ${problems.map((p) => `${p.path} ${p.message}`).join("; ")}`);
      }
      const bytes = this.encoder.encode(`${JSON.stringify(value)}\n`);
      if (bytes.length > ARCHIVE_PART_BYTES) {
        throw new Error(`Cannot export ${kind} line ${n}: it is ${bytes.length} bytes, more than a part's ${ARCHIVE_PART_BYTES}`);
      }
      if (used > 0 && used + bytes.length > this.partBytes) await flush();
      if (used + bytes.length > buf.length) {
        const grown = new Uint8Array(Math.max(used + bytes.length, Math.min(buf.length * 2, this.partBytes)));
        grown.set(buf.subarray(0, used));
        buf = grown;
      }
      buf.set(bytes, used);
      used += bytes.length;
      lines++;
      summary.count = n;
      if (kind === "areas") {
        const area = value as ArchiveLine<"areas">;
        this.areaNames.set(area.id, area.name);
      }
      if (kind === "topics" && this.markdown) {
        const topic = value as ArchiveLine<"topics">;
        const md = topicMarkdown(topic, topic.area_id === null ? null : this.areaNames.get(topic.area_id) ?? null);
        await this.writeFile(topicMarkdownPath(topic.slug), this.encoder.encode(md));
      }
    }
    await flush();
  }

  private async writeFile(path: string, bytes: Uint8Array, lines?: number): Promise<void> {
    const entry: ArchiveFileEntry = { path, bytes: bytes.length, sha256: await sha256Hex(bytes) };
    if (lines !== undefined) entry.lines = lines;
    this.files.push(entry);
    await this.writeEntry(path, bytes);
  }

  private async writeEntry(path: string, bytes: Uint8Array): Promise<void> {
    const body = this.tar.add({ name: path, size: bytes.length, mtime: this.mtime, mode: 0o644, type: "file" }).getWriter();
    if (bytes.length) await body.write(bytes);
    await body.close();
  }

  private async writeManifest(): Promise<void> {
    const ws = this.contents.workspace;
    const manifest: ArchiveManifest = {
      format: ARCHIVE_FORMAT,
      format_version: ARCHIVE_FORMAT_VERSION,
      service_version: this.contents.serviceVersion,
      exported_at: this.contents.exportedAt,
      consistency: this.contents.consistency,
      workspace: { id: ws.id, slug: ws.slug, name: ws.name, plan: ws.plan },
      part_bytes: this.partBytes,
      kinds: this.kinds,
      files: this.files,
    };
    await this.writeEntry(ARCHIVE_MANIFEST_PATH, this.encoder.encode(`${JSON.stringify(manifest, null, 2)}\n`));
  }
}
