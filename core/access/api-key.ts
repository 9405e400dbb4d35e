const KEY_PREFIX = "wks_";
const PREFIX_SHOWN = 12;
/** How stale `last_used_at` may get before a request writes it again: one write a minute, not one a request. */
export const LAST_USED_RESOLUTION_MS = 60_000;

const alphabet = "abcdefghijklmnopqrstuvwxyz234567";

/** A raw key: `wks_` + 40 base32 characters = 200 random bits. */
export function generateRawKey(): string {
  const bytes = new Uint8Array(40);
  crypto.getRandomValues(bytes);
  let out = KEY_PREFIX;
  for (const b of bytes) out += alphabet[b & 31];
  return out;
}

export function looksLikeRawKey(value: string): boolean {
  return value.length === KEY_PREFIX.length + 40 && value.startsWith(KEY_PREFIX) && /^[a-z2-7]+$/.test(value.slice(4));
}

export function displayPrefix(raw: string): string {
  return raw.slice(0, PREFIX_SHOWN);
}

export async function hashRawKey(raw: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(raw)));
  let hex = "";
  for (const b of digest) hex += b.toString(16).padStart(2, "0");
  return hex;
}
