import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdtemp, open, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { CsvError, parse } from "csv-parse";
import type { ImportFormat, ImportRow, ImportSource } from "../../core/collections/mod.ts";
import { AppError } from "../../core/kernel/mod.ts";

/**
 * The body of a records import (docs/decisions/063-records-csv-and-ndjson.md), streamed to a
 * temporary file as it arrives, hashed on the way (the request's fingerprint under an
 * `Idempotency-Key`), then read back as rows as often as the import needs (twice): memory stays
 * flat whatever the file's size, and the client's upload is not held open while the store works.
 */
export interface SpooledBody {
  bytes: number;
  /** SHA-256 of the body, hex. */
  sha256: string;
  rows(format: ImportFormat): ImportSource;
  /** The body's bytes again, from the start (a workspace archive's `ArchiveSource`). */
  open(): ReadableStream<Uint8Array>;
  dispose(): Promise<void>;
}

const tooLarge = (limit: number) =>
  new AppError("PAYLOAD_TOO_LARGE", `Request body too large: an import takes at most ${limit} bytes (IMPORT_LIMIT_BYTES)`);

export async function spoolBody(request: Request, limitBytes: number): Promise<SpooledBody> {
  if (Number(request.headers.get("content-length") ?? 0) > limitBytes) throw tooLarge(limitBytes);
  const dir = await mkdtemp(join(tmpdir(), "wks-import-"));
  const path = join(dir, "body");
  const dispose = () => rm(dir, { recursive: true, force: true });
  const hash = createHash("sha256");
  let bytes = 0;
  try {
    const file = await open(path, "w");
    try {
      if (request.body) {
        for await (const chunk of request.body as unknown as AsyncIterable<Uint8Array>) {
          bytes += chunk.byteLength;
          if (bytes > limitBytes) throw tooLarge(limitBytes);
          hash.update(chunk);
          await file.write(chunk);
        }
      }
    } finally {
      await file.close();
    }
  } catch (e) {
    await dispose();
    throw e;
  }
  return {
    bytes,
    sha256: hash.digest("hex"),
    rows: (format) => ({ rows: () => (format === "csv" ? csvRows(path) : ndjsonRows(path)) }),
    open: () => Bun.file(path).stream(),
    dispose,
  };
}

/**
 * A tick that runs a full garbage collection every `n` calls. Reading and writing records by the
 * thousand allocates much that dies young, and Bun's heap, left alone, grew by two to five times
 * what an import or export holds (measured in process on 100,000 rows: the import's first reading
 * +57 to +78 MB resident, with a collection every 5,000 rows +9 MB; the whole import +93 to +133 MB,
 * then +56 MB). A collection of a heap that small takes milliseconds.
 */
export function collectEvery(n: number): () => void {
  let calls = 0;
  return () => {
    if (++calls % n === 0) Bun.gc(true);
  };
}

/** Rows read between two collections (`collectEvery`). */
export const COLLECT_EVERY_ROWS = 5_000;

/** A CSV record (a row) may not be longer than this: a record's fields are at most 256 KiB of JSON. */
const MAX_CSV_RECORD_BYTES = 1024 * 1024;
const NUL = "\0";

/**
 * RFC 4180 rows (csv-parse): quoted cells may span lines; CRLF, LF or CR end a record; a UTF-8
 * byte order mark is skipped. Each row's line is the line it starts on. Malformed quoting ends
 * the reading with that problem (nothing after it can be read reliably).
 */
async function* csvRows(path: string): AsyncGenerator<ImportRow> {
  const parser = createReadStream(path).pipe(
    parse({
      bom: true,
      info: true,
      relax_column_count: true,
      skip_empty_lines: false,
      record_delimiter: ["\r\n", "\n", "\r"],
      max_record_size: MAX_CSV_RECORD_BYTES,
    }),
  );
  let line = 1;
  const collect = collectEvery(COLLECT_EVERY_ROWS);
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      if (record.some((cell) => cell.includes(NUL))) yield { line, problem: "holds a NUL character (U+0000), which no store keeps" };
      else yield { line, cells: record };
      line = info.lines + 1;
      collect();
    }
  } catch (e) {
    if (!(e instanceof CsvError)) throw e;
    const at = (e as CsvError & { lines?: number }).lines;
    yield { line: typeof at === "number" && at > 0 ? at : line, problem: `is not valid CSV (RFC 4180): ${e.message}` };
  } finally {
    parser.destroy();
  }
}

/** One JSON value per line; blank lines are skipped. */
async function* ndjsonRows(path: string): AsyncGenerator<ImportRow> {
  const input = createReadStream(path, { encoding: "utf8" });
  const lines = createInterface({ input, crlfDelay: Infinity });
  let line = 0;
  const collect = collectEvery(COLLECT_EVERY_ROWS);
  try {
    for await (const raw of lines) {
      line++;
      collect();
      const text = line === 1 && raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
      if (text.trim() === "") continue;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (e) {
        yield { line, problem: `is not JSON: ${(e as Error).message}` };
        continue;
      }
      if (text.includes("\\u0000") && holdsNul(value)) yield { line, problem: "holds a NUL character (U+0000), which no store keeps" };
      else yield { line, value };
    }
  } finally {
    lines.close();
    input.destroy();
  }
}

function holdsNul(v: unknown): boolean {
  if (typeof v === "string") return v.includes(NUL);
  if (Array.isArray(v)) return v.some(holdsNul);
  if (v && typeof v === "object") return Object.entries(v).some(([k, x]) => k.includes(NUL) || holdsNul(x));
  return false;
}
