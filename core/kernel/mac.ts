import { hmac as oslojsHmac } from "@oslojs/crypto/hmac";
import { SHA1 } from "@oslojs/crypto/sha1";
import { SHA256 } from "@oslojs/crypto/sha2";

/**
 * The one HMAC and the one constant-time comparison of the service (ADR 060): webhook signatures
 * (inbound and outbound), mail's unsubscribe tokens, the consent form's CSRF tokens and the
 * server's signed cookie values all go through these. On `@oslojs/crypto`, like every token of
 * identity: runtime-neutral and synchronous, so a guard that answers at once stays synchronous.
 */
export type MacHash = "SHA-256" | "SHA-1";

const encoder = new TextEncoder();
const bytesOf = (v: Uint8Array | string) => (typeof v === "string" ? encoder.encode(v) : v);

/** HMAC of `message` under `key` (a string is taken as its UTF-8 bytes). SHA-1 only for providers that still sign with it. */
export function hmac(hash: MacHash, key: Uint8Array | string, message: Uint8Array | string): Uint8Array {
  return oslojsHmac(hash === "SHA-256" ? SHA256 : SHA1, bytesOf(key), bytesOf(message));
}

const unitAt = (v: Uint8Array | string, i: number) => (typeof v === "string" ? v.charCodeAt(i) : v[i]!);

/**
 * Whether two MACs (bytes, or strings compared by UTF-16 code unit) are equal, in time that depends
 * on their length only, not on where they differ.
 */
export function constantTimeEqual(a: Uint8Array | string, b: Uint8Array | string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= unitAt(a, i) ^ unitAt(b, i);
  return diff === 0;
}
