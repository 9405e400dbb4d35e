import { inflateSync } from "fflate";
import {
  type ArchiveFile,
  archiveInvalid,
  type ArchiveLimits,
  archiveTooLarge,
  archiveUnsafe,
  safeEntryPath,
  type WantFile,
} from "./archive-entries.ts";

/**
 * Reads a zip held in memory (its directory is at its end, so the whole archive is needed).
 * The central directory is read here (names, sizes, Unix modes: a symlink is only told there),
 * zip64 included; a wanted entry is inflated by fflate (stored or deflated) and checked against
 * its CRC-32. Encrypted entries and other methods are refused when wanted.
 */

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const U16_MAX = 0xffff;
const U32_MAX = 0xffffffff;

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

interface CentralEntry {
  name: string;
  madeBy: number;
  flags: number;
  method: number;
  crc: number;
  compressed: number;
  size: number;
  attrs: number;
  offset: number;
}

/** Whether `bytes` begins as a zip does (a local header, or the end record of an empty zip). */
export function looksLikeZip(head: Uint8Array): boolean {
  return head.length >= 4 && head[0] === 0x50 && head[1] === 0x4b &&
    ((head[2] === 0x03 && head[3] === 0x04) || (head[2] === 0x05 && head[3] === 0x06));
}

function u64(v: DataView, at: number): number {
  const n = v.getBigUint64(at, true);
  if (n > BigInt(Number.MAX_SAFE_INTEGER)) throw archiveInvalid("a zip64 field is out of range");
  return Number(n);
}

function endOfDirectory(v: DataView): { count: number; offset: number; size: number } {
  const last = Math.max(0, v.byteLength - 22 - U16_MAX);
  for (let at = v.byteLength - 22; at >= last; at--) {
    if (v.getUint32(at, true) !== EOCD) continue;
    let count = v.getUint16(at + 10, true);
    let size = v.getUint32(at + 12, true);
    let offset = v.getUint32(at + 16, true);
    if (count === U16_MAX || size === U32_MAX || offset === U32_MAX) {
      const loc = at - 20;
      if (loc < 0 || v.getUint32(loc, true) !== ZIP64_LOCATOR) throw archiveInvalid("the zip64 end record is missing");
      const z = u64(v, loc + 8);
      if (z + 56 > v.byteLength || v.getUint32(z, true) !== ZIP64_EOCD) throw archiveInvalid("the zip64 end record is corrupt");
      count = u64(v, z + 32);
      size = u64(v, z + 40);
      offset = u64(v, z + 48);
    }
    if (offset + size > v.byteLength) throw archiveInvalid("the zip's directory lies outside the file (truncated?)");
    return { count, offset, size };
  }
  throw archiveInvalid("no zip directory found (truncated or not a zip)");
}

function centralEntries(bytes: Uint8Array, v: DataView, limits: ArchiveLimits): CentralEntry[] {
  const { count, offset } = endOfDirectory(v);
  if (count > limits.maxEntries * 2 + 1000) throw archiveTooLarge(`it lists ${count} entries`);
  const out: CentralEntry[] = [];
  let at = offset;
  const names = new TextDecoder("utf-8");
  for (let i = 0; i < count; i++) {
    if (at + 46 > v.byteLength || v.getUint32(at, true) !== CENTRAL) throw archiveInvalid("the zip's directory is corrupt");
    const nameLength = v.getUint16(at + 28, true);
    const extraLength = v.getUint16(at + 30, true);
    const commentLength = v.getUint16(at + 32, true);
    const e: CentralEntry = {
      madeBy: v.getUint16(at + 4, true),
      flags: v.getUint16(at + 8, true),
      method: v.getUint16(at + 10, true),
      crc: v.getUint32(at + 16, true),
      compressed: v.getUint32(at + 20, true),
      size: v.getUint32(at + 24, true),
      attrs: v.getUint32(at + 38, true),
      offset: v.getUint32(at + 42, true),
      name: names.decode(bytes.subarray(at + 46, at + 46 + nameLength)),
    };
    // zip64: the sizes and offset that did not fit are in extra field 0x0001, in this order.
    let x = at + 46 + nameLength;
    const end = x + extraLength;
    while (x + 4 <= end) {
      const id = v.getUint16(x, true);
      const len = v.getUint16(x + 2, true);
      if (id === 0x0001) {
        let p = x + 4;
        if (e.size === U32_MAX) (e.size = u64(v, p)), (p += 8);
        if (e.compressed === U32_MAX) (e.compressed = u64(v, p)), (p += 8);
        if (e.offset === U32_MAX) e.offset = u64(v, p);
      }
      x += 4 + len;
    }
    out.push(e);
    at = end + commentLength;
  }
  return out;
}

/** Unix file type bits of an entry made on Unix (`version made by` high byte 3), else null. */
function unixType(e: CentralEntry): number | null {
  return e.madeBy >> 8 === 3 ? (e.attrs >>> 16) & 0o170000 : null;
}

function contentOf(bytes: Uint8Array, v: DataView, e: CentralEntry, path: string): Uint8Array {
  if (e.flags & 0x1) throw archiveInvalid("encrypted entries are not read", path);
  const at = e.offset;
  if (at + 30 > v.byteLength || v.getUint32(at, true) !== LOCAL) throw archiveInvalid("an entry's local header is corrupt", path);
  const start = at + 30 + v.getUint16(at + 26, true) + v.getUint16(at + 28, true);
  const data = bytes.subarray(start, start + e.compressed);
  if (data.length !== e.compressed) throw archiveInvalid("an entry is truncated", path);
  let out: Uint8Array;
  if (e.method === 0) out = data;
  else if (e.method === 8) {
    try {
      // One byte more than declared: a longer stream shows as a length that does not match.
      out = inflateSync(data, { out: new Uint8Array(e.size + 1) });
    } catch {
      throw archiveInvalid("an entry's data is corrupt", path);
    }
  } else throw archiveInvalid(`compression method ${e.method} is not read (stored and deflate are)`, path);
  if (out.length !== e.size || crc32(out) !== e.crc) throw archiveInvalid("an entry's data is corrupt (size or CRC-32)", path);
  return out;
}

export function readZip(bytes: Uint8Array, limits: ArchiveLimits, want: WantFile): ArchiveFile[] {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const entries = centralEntries(bytes, v, limits);
  const files: ArchiveFile[] = [];
  const kept: Array<{ file: ArchiveFile; entry: CentralEntry }> = [];
  // Every path and type is checked before anything is inflated.
  for (const e of entries) {
    const type = unixType(e);
    if (type === 0o120000) throw archiveUnsafe(e.name, "a symbolic link");
    const path = safeEntryPath(e.name);
    if (e.name.endsWith("/") || e.name.endsWith("\\") || type === 0o040000) continue;
    if (type !== null && type !== 0 && type !== 0o100000) throw archiveUnsafe(e.name, "not a regular file");
    const file: ArchiveFile = { path, size: e.size, bytes: null };
    files.push(file);
    if (files.length > limits.maxEntries) throw archiveTooLarge(`more than ${limits.maxEntries} files`);
    if (want(path, e.size)) kept.push({ file, entry: e });
  }
  let read = 0;
  for (const { file, entry } of kept) {
    if (entry.size > limits.maxFileBytes) throw archiveTooLarge(`${file.path} is larger than ${limits.maxFileBytes} bytes`, file.path);
    read += entry.size;
    if (read > limits.maxReadBytes) throw archiveTooLarge(`the files read add up to more than ${limits.maxReadBytes} bytes`, file.path);
    file.bytes = contentOf(bytes, v, entry, file.path);
  }
  return files;
}
