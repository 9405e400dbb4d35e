import { createTarDecoder } from "modern-tar";
import {
  type ArchiveFile,
  archiveInvalid,
  type ArchiveLimits,
  archiveTooLarge,
  archiveUnsafe,
  safeEntryPath,
  type WantFile,
} from "./archive-entries.ts";
import { isAppError } from "./errors.ts";

/**
 * Reads a `.tar.gz` as it streams in: gunzipped by the runtime's `DecompressionStream` (a Web API:
 * native zlib, the gzip CRC checked), parsed by modern-tar (Web Streams; strict: header checksums,
 * truncation), each entry read or passed over as `want` says, so memory holds only the files read.
 */

/** Counts the bytes that pass, failing the stream with `tooLarge()` once past `max`. */
export function byteLimit(max: number, tooLarge: () => Error): TransformStream<Uint8Array, Uint8Array> {
  let seen = 0;
  return new TransformStream({
    transform(chunk, controller) {
      seen += chunk.byteLength;
      if (seen > max) controller.error(tooLarge());
      else controller.enqueue(chunk);
    },
  });
}

async function readAll(body: ReadableStream<Uint8Array>, size: number): Promise<Uint8Array> {
  const out = new Uint8Array(size);
  let at = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (at + value.byteLength > size) throw archiveInvalid("an entry is longer than its header says");
    out.set(value, at);
    at += value.byteLength;
  }
  if (at !== size) throw archiveInvalid("an entry is truncated");
  return out;
}

/** `gzipped` (already bounded by the caller to the archive's size) as the files of the tar inside. */
export async function readTarGz(gzipped: ReadableStream<Uint8Array>, limits: ArchiveLimits, want: WantFile): Promise<ArchiveFile[]> {
  const decoder = createTarDecoder({ strict: true });
  const entries = gzipped
    .pipeThrough(new DecompressionStream("gzip") as unknown as TransformStream<Uint8Array, Uint8Array>)
    .pipeThrough(byteLimit(limits.maxExpandedBytes, () => archiveTooLarge(`it expands to more than ${limits.maxExpandedBytes} bytes`)))
    .pipeThrough(decoder);
  const files: ArchiveFile[] = [];
  let read = 0;
  try {
    for await (const entry of entries) {
      const { header } = entry;
      const type = header.type ?? "file";
      if (type === "symlink" || type === "link") throw archiveUnsafe(header.name, type === "link" ? "a hard link" : "a symbolic link");
      const path = safeEntryPath(header.name);
      if (type === "directory") {
        await entry.body.cancel();
        continue;
      }
      if (type !== "file") throw archiveUnsafe(header.name, `not a regular file (${type})`);
      const file: ArchiveFile = { path, size: header.size, bytes: null };
      files.push(file);
      if (files.length > limits.maxEntries) throw archiveTooLarge(`more than ${limits.maxEntries} files`);
      if (!want(path, header.size)) {
        await entry.body.cancel();
        continue;
      }
      if (header.size > limits.maxFileBytes) throw archiveTooLarge(`${path} is larger than ${limits.maxFileBytes} bytes`, path);
      read += header.size;
      if (read > limits.maxReadBytes) throw archiveTooLarge(`the files read add up to more than ${limits.maxReadBytes} bytes`, path);
      file.bytes = await readAll(entry.body, header.size);
    }
  } catch (e) {
    if (isAppError(e)) throw e;
    // The runtime's gunzip and modern-tar fail with plain errors: corrupt or truncated data.
    throw archiveInvalid(`the .tar.gz is corrupt or truncated (${e instanceof Error ? e.message : String(e)})`);
  }
  return files;
}
