import { type ArchiveFile, archiveInvalid, type ArchiveLimits, archiveTooLarge, type WantFile } from "./archive-entries.ts";
import { byteLimit, readTarGz } from "./archive-tar.ts";
import { looksLikeZip, readZip } from "./archive-zip.ts";
import { isAppError } from "./errors.ts";

/**
 * Reads an uploaded archive, `.tar.gz` or `.zip`, told apart by their first bytes (not by a
 * name or a content type, which clients get wrong). Every entry's path is checked (no `..`, no
 * absolute path, no link: `ARCHIVE_UNSAFE_ENTRY`), every bound of `limits` holds
 * (`PAYLOAD_TOO_LARGE`), and anything unreadable is `ARCHIVE_INVALID`; files come back in the
 * archive's order, with their bytes when `want` asked for them. A tar.gz streams; a zip is held
 * whole (its directory is at its end), up to `limits.maxBytes`.
 */
export async function readArchive(body: ReadableStream<Uint8Array>, limits: ArchiveLimits, want: WantFile): Promise<ArchiveFile[]> {
  const bounded = body.pipeThrough(
    byteLimit(limits.maxBytes, () => archiveTooLarge(`the archive is larger than ${limits.maxBytes} bytes`)),
  );
  const reader = bounded.getReader();
  const head: Uint8Array[] = [];
  let headBytes = 0;
  let ended = false;
  try {
    while (headBytes < 4) {
      const { done, value } = await reader.read();
      if (done) {
        ended = true;
        break;
      }
      head.push(value);
      headBytes += value.byteLength;
    }
  } catch (e) {
    if (isAppError(e)) throw e;
    throw archiveInvalid("the body could not be read");
  }
  if (headBytes === 0) throw archiveInvalid("the body is empty: send a .tar.gz or .zip");
  const first = concat(head, headBytes);
  // The bytes already read, then the rest as it comes.
  const rest = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(first);
      if (ended) controller.close();
    },
    async pull(controller) {
      if (ended) return;
      try {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (e) {
        controller.error(e);
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  if (first[0] === 0x1f && first[1] === 0x8b) return readTarGz(rest, limits, want);
  if (looksLikeZip(first)) return readZip(await collect(rest), limits, want);
  await rest.cancel();
  throw archiveInvalid("the body is neither a gzip-compressed tar (.tar.gz) nor a zip");
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

async function collect(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } catch (e) {
    if (isAppError(e)) throw e;
    throw archiveInvalid("the body could not be read");
  }
  return concat(chunks, size);
}
