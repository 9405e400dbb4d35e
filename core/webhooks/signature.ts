/**
 * `X-Hub-Signature-256` (GitHub, Gitea, Forgejo): `sha256=` + the hex HMAC-SHA256 of the raw
 * request body under the webhook's shared secret. Web Crypto only, so core stays runtime-neutral.
 */
const encoder = new TextEncoder();

async function hmacSha256(secret: string, body: Uint8Array): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", key, body as Uint8Array<ArrayBuffer>));
}

const toHex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

/** The header value a sender computes for `body`. */
export async function hubSignature(secret: string, body: Uint8Array): Promise<string> {
  return `sha256=${toHex(await hmacSha256(secret, body))}`;
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
