import { validationFailed } from "./errors.ts";

/**
 * Opaque keyset cursors. A cursor carries the sort key of the last row served and a fingerprint
 * of the query it belongs to, so a cursor replayed against another filter or sort is rejected
 * instead of silently serving a wrong page.
 */
export interface Cursor<K> {
  /** fingerprint of the query (filter + sort) the cursor was issued for */
  q: string;
  /** the last row's sort key */
  k: K;
}

const enc = new TextEncoder();
const dec = new TextDecoder();

function toBase64Url(bytes: Uint8Array): string {
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(s: string): Uint8Array {
  const bin = atob(s.replace(/-/g, "+").replace(/_/g, "/"));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** A short stable fingerprint of a JSON-able query description (FNV-1a, 32 bits, hex). */
export function queryFingerprint(query: unknown): string {
  const text = JSON.stringify(query);
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, "0");
}

export function encodeCursor<K>(query: unknown, key: K): string {
  return toBase64Url(enc.encode(JSON.stringify({ q: queryFingerprint(query), k: key } satisfies Cursor<K>)));
}

export function decodeCursor<K>(cursor: string, query: unknown): K {
  let parsed: Cursor<K>;
  try {
    if (cursor.length > 2048) throw new Error("too long");
    parsed = JSON.parse(dec.decode(fromBase64Url(cursor)));
  } catch {
    throw validationFailed("Invalid cursor: it is not a cursor this API issued", [{ path: "query.cursor", message: "malformed" }]);
  }
  if (!parsed || typeof parsed !== "object" || parsed.q !== queryFingerprint(query)) {
    throw validationFailed("Invalid cursor: it was issued for a different filter or sort", [
      { path: "query.cursor", message: "belongs to another query" },
    ]);
  }
  return parsed.k;
}
