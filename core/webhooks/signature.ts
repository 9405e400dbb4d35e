import { encodeHexLowerCase } from "@oslojs/encoding";
import { constantTimeEqual, hmac } from "../kernel/mac.ts";

/**
 * `X-Hub-Signature-256` (GitHub, Gitea, Forgejo): `sha256=` + the hex HMAC-SHA256 of the raw
 * request body under the webhook's shared secret; `X-Hub-Signature` (Intercom, GitHub's legacy
 * header): `sha1=` + the hex HMAC-SHA1. Through kernel's one HMAC (ADR 060).
 */
export { constantTimeEqual };

/** The header value a sender computes for `body`. */
export function hubSignature(secret: string, body: Uint8Array): string {
  return `sha256=${encodeHexLowerCase(hmac("SHA-256", secret, body))}`;
}

/** Whether `header` is the signature of `body` under `secret`. A missing or malformed header is false. */
export function verifyHubSignature(secret: string, body: Uint8Array, header: string | null | undefined): boolean {
  if (!header || !/^sha256=[0-9a-fA-F]{64}$/.test(header)) return false;
  return constantTimeEqual(hubSignature(secret, body), `sha256=${header.slice(7).toLowerCase()}`);
}

/** The `X-Hub-Signature` value (HMAC-SHA1, Intercom's scheme) a sender computes for `body`. */
export function hubSignatureSha1(secret: string, body: Uint8Array): string {
  return `sha1=${encodeHexLowerCase(hmac("SHA-1", secret, body))}`;
}

/** Whether `header` is `sha1=` + the hex HMAC-SHA1 of `body` under `secret`. A missing or malformed header is false. */
export function verifyHubSignatureSha1(secret: string, body: Uint8Array, header: string | null | undefined): boolean {
  if (!header || !/^sha1=[0-9a-fA-F]{40}$/.test(header)) return false;
  return constantTimeEqual(hubSignatureSha1(secret, body), `sha1=${header.slice(5).toLowerCase()}`);
}
