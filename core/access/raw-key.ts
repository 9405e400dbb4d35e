import { sha256 } from "@oslojs/crypto/sha2";
import { encodeBase32LowerCaseNoPadding, encodeHexLowerCase } from "@oslojs/encoding";

/**
 * API keys, on `@oslojs` like every other token (ADR 060): `wks_` and 25 random bytes in lowercase
 * base32 without padding (40 characters, 200 bits); only their SHA-256 (hex) is stored and looked
 * up. Keys minted before (each character the low 5 bits of a random byte, the same alphabet and
 * length) have the same shape and the same digest, so they keep working.
 */
const KEY_PREFIX = "wks_";
const PREFIX_SHOWN = 12;
/** How stale `last_used_at` may get before a request writes it again: one write a minute, not one a request. */
export const LAST_USED_RESOLUTION_MS = 60_000;

const KEY_BYTES = 25;

/** A raw key: `wks_` + 40 base32 characters = 200 random bits. */
export function generateRawKey(): string {
  return KEY_PREFIX + encodeBase32LowerCaseNoPadding(crypto.getRandomValues(new Uint8Array(KEY_BYTES)));
}

export function looksLikeRawKey(value: string): boolean {
  return value.length === KEY_PREFIX.length + 40 && value.startsWith(KEY_PREFIX) && /^[a-z2-7]+$/.test(value.slice(4));
}

export function displayPrefix(raw: string): string {
  return raw.slice(0, PREFIX_SHOWN);
}

/** SHA-256 of a raw key (or share token) as lowercase hex: what is stored and looked up. */
export function hashRawKey(raw: string): string {
  return encodeHexLowerCase(sha256(new TextEncoder().encode(raw)));
}
