/**
 * `X-Hub-Signature-256` (GitHub, Gitea, Forgejo): `sha256=` + the hex HMAC-SHA256 of the raw
 * request body under the webhook's shared secret; `X-Hub-Signature` (Intercom, GitHub's legacy
 * header): `sha1=` + the hex HMAC-SHA1. Web Crypto only, so core stays runtime-neutral.
 */
const encoder = new TextEncoder();

async function hmac(hash: "SHA-256" | "SHA-1", secret: string, body: Uint8Array): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash }, false, ["sign"]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", key, body as Uint8Array<ArrayBuffer>));
}

const toHex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

/** The header value a sender computes for `body`. */
export async function hubSignature(secret: string, body: Uint8Array): Promise<string> {
  return `sha256=${toHex(await hmac("SHA-256", secret, body))}`;
}

/** Compares two strings in time that depends on their length only, not on where they differ. */
export function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** Whether `header` is the signature of `body` under `secret`. A missing or malformed header is false. */
export async function verifyHubSignature(secret: string, body: Uint8Array, header: string | null | undefined): Promise<boolean> {
  if (!header || !/^sha256=[0-9a-fA-F]{64}$/.test(header)) return false;
  return constantTimeEqual(await hubSignature(secret, body), `sha256=${header.slice(7).toLowerCase()}`);
}

/** The `X-Hub-Signature` value (HMAC-SHA1, Intercom's scheme) a sender computes for `body`. */
export async function hubSignatureSha1(secret: string, body: Uint8Array): Promise<string> {
  return `sha1=${toHex(await hmac("SHA-1", secret, body))}`;
}

/** Whether `header` is `sha1=` + the hex HMAC-SHA1 of `body` under `secret`. A missing or malformed header is false. */
export async function verifyHubSignatureSha1(secret: string, body: Uint8Array, header: string | null | undefined): Promise<boolean> {
  if (!header || !/^sha1=[0-9a-fA-F]{40}$/.test(header)) return false;
  return constantTimeEqual(await hubSignatureSha1(secret, body), `sha1=${header.slice(5).toLowerCase()}`);
}
