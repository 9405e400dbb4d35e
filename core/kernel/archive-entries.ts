import { AppError } from "./errors.ts";

/**
 * What reading an uploaded archive (`.tar.gz` or `.zip`) yields and refuses, whatever its format
 * (archive-reader.ts). Paths are checked here once: an archive that names a file outside itself
 * (`../x`, `/etc/x`, `C:/x`) or holds a link is refused whole, never partly read.
 * docs/decisions/064-markdown-import.md ("Archives").
 */

export interface ArchiveLimits {
  /** The archive as sent (IMPORT_LIMIT_BYTES). */
  maxBytes: number;
  /** Files in it, of any kind (folders are not counted). */
  maxEntries: number;
  /** What a `.tar.gz` expands to (a gzip bomb stops here). */
  maxExpandedBytes: number;
  /** One file read (`want` said yes). */
  maxFileBytes: number;
  /** All files read, together. */
  maxReadBytes: number;
}

/** A file of the archive: its normalised path and size; `bytes` when it was read. */
export interface ArchiveFile {
  path: string;
  size: number;
  bytes: Uint8Array | null;
}

/** Whether to read a file's bytes (else it is passed over unread). */
export type WantFile = (path: string, size: number) => boolean;

/** The archive cannot be read: not gzip or zip, corrupt, truncated, or of a kind not read here. */
export function archiveInvalid(message: string, path = "body"): AppError {
  return new AppError("ARCHIVE_INVALID", `Invalid archive: ${message}`, [{ path, message }]);
}

/** An entry that could write outside the archive's folder, or is a link: the whole archive is refused. */
export function archiveUnsafe(entry: string, message: string): AppError {
  return new AppError("ARCHIVE_UNSAFE_ENTRY", `Unsafe archive entry ${JSON.stringify(entry)}: ${message}`, [{ path: entry, message }]);
}

/** A bound of `ArchiveLimits` passed: 413 with what was passed. */
export function archiveTooLarge(message: string, path = "body"): AppError {
  return new AppError("PAYLOAD_TOO_LARGE", `Archive too large: ${message}`, [{ path, message }]);
}

/**
 * The entry's path as the import reads it (`\` taken as `/`, `./` and empty segments dropped,
 * Unicode NFC), or a refusal: absolute, a drive letter, a `..` segment, a NUL or control character.
 */
export function safeEntryPath(raw: string): string {
  const slashed = raw.replace(/\\/g, "/");
  // deno-lint-ignore no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(slashed)) throw archiveUnsafe(raw, "the name holds a control character");
  if (slashed.startsWith("/")) throw archiveUnsafe(raw, "an absolute path");
  if (/^[a-zA-Z]:/.test(slashed)) throw archiveUnsafe(raw, "a path with a drive letter");
  const segments = slashed.split("/").filter((s) => s !== "" && s !== ".");
  if (segments.includes("..")) throw archiveUnsafe(raw, "a path climbing out of the archive (`..`)");
  if (segments.length === 0) throw archiveUnsafe(raw, "an empty path");
  return segments.join("/").normalize("NFC");
}
