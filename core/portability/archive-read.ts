import type { ParsedTarEntry } from "modern-tar";
import { parseArchivePath } from "./archive-paths.ts";
import { ARCHIVE_MAX_TAR_BYTES, type ArchiveReadOptions } from "./archive-verify.ts";
import type { ArchiveLine } from "./lines.ts";
import type { ArchiveFileEntry, ArchiveManifest } from "./manifest.ts";
import { ARCHIVE_PART_BYTES, type ArchiveKind } from "./model.ts";
import { sha256Hex } from "./sha256.ts";
import { forEachTarEntry, ndjsonLines, readBody } from "./tar-entries.ts";

/**
 * Where an import reads an archive from: the same bytes every time it is opened (the server
 * spools the upload to a temporary file, bounded by IMPORT_LIMIT_BYTES, and opens it once to
 * verify and again to import). The manifest is the last entry, so nothing can be trusted before
 * the whole archive was read once.
 */
export interface ArchiveSource {
  open(): ReadableStream<Uint8Array>;
}

/** A line of the archive, with where it is. */
export type ArchiveRecord = { [K in ArchiveKind]: { kind: K; file: string; line: number; value: ArchiveLine<K> } }[ArchiveKind];

/** The archive's bytes differ from those the verifying pass read: nothing of the differing file was yielded. */
export class ArchiveChangedError extends Error {
  constructor(readonly file: string, why: string) {
    super(`The archive changed since it was verified: ${file} ${why}`);
    this.name = "ArchiveChangedError";
  }
}

/**
 * The second pass, after `verifyWorkspaceArchive` answered `manifest`: every line of every data
 * file, in archive order (kinds in replay order). Each part is hashed again before any of its
 * lines is yielded, so a line never comes from bytes other than those verified; the lines were
 * checked by the first pass, so they are not checked again. Markdown files are skipped.
 */
export async function* readWorkspaceArchive(
  gz: ReadableStream<Uint8Array>,
  manifest: ArchiveManifest,
  options: ArchiveReadOptions = {},
): AsyncGenerator<ArchiveRecord> {
  const expected = new Map<string, ArchiveFileEntry>(manifest.files.filter((f) => f.lines !== undefined).map((f) => [f.path, f]));
  const decoder = new TextDecoder("utf-8", { fatal: true });
  // The tar is read by a callback; lines cross to this generator one part at a time.
  const queue: { file: string; kind: ArchiveKind; text: string }[] = [];
  let wake: (() => void) | null = null;
  let proceed: (() => void) | null = null;
  let done = false;
  let failure: unknown = null;
  let stopped = false;

  const onEntry = async ({ header, body }: ParsedTarEntry) => {
    const where = parseArchivePath(header.name);
    if (where.type !== "data") return void (await body.cancel());
    const want = expected.get(header.name);
    if (!want) throw new ArchiveChangedError(header.name, "is not a data file of the manifest");
    if (header.size !== want.bytes || header.size > ARCHIVE_PART_BYTES) throw new ArchiveChangedError(header.name, "has another size");
    let bytes: Uint8Array | null = await readBody(body, header.size);
    if ((await sha256Hex(bytes)) !== want.sha256) throw new ArchiveChangedError(header.name, "has another SHA-256");
    expected.delete(header.name);
    queue.push({ file: header.name, kind: where.kind, text: decoder.decode(bytes) });
    bytes = null; // the text is what is read from here on: one copy of the part, not two
    wake?.();
    // Hold the tar until the generator has handed this part's lines out: one part at a time.
    await new Promise<void>((resolve) => (proceed = resolve));
    if (stopped) throw new Error("stopped");
  };

  const reading = forEachTarEntry(gz, options.maxTarBytes ?? ARCHIVE_MAX_TAR_BYTES, onEntry)
    .then(() => {
      const missing = expected.keys().next();
      if (!missing.done) throw new ArchiveChangedError(missing.value, "is missing");
    })
    .catch((e) => void (failure = stopped ? null : e))
    .finally(() => {
      done = true;
      wake?.();
    });

  try {
    for (;;) {
      if (queue.length === 0) {
        if (done) break;
        await new Promise<void>((resolve) => (wake = resolve));
        wake = null;
        continue;
      }
      const part = queue.shift()!;
      for (const [line, raw] of ndjsonLines(part.text)) {
        yield { kind: part.kind, file: part.file, line, value: JSON.parse(raw) } as ArchiveRecord;
      }
      const next = proceed as (() => void) | null;
      proceed = null;
      next?.();
    }
    if (failure) throw failure;
  } finally {
    if (!done) {
      stopped = true;
      const next = proceed as (() => void) | null;
      proceed = null;
      next?.();
      await reading;
    }
  }
}
