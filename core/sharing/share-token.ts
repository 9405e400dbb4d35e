/** Random bytes in a share token: 256 bits, far beyond guessing (ADR 008). */
export const SHARE_TOKEN_BYTES = 32;
/** Length of a token: 32 bytes in unpadded base64url. */
export const SHARE_TOKEN_LENGTH = 43;
const TOKEN_RE = /^[A-Za-z0-9_-]{43}$/;

/** A new raw token: 32 bytes from `crypto.getRandomValues`, base64url without padding. */
export function generateShareToken(): string {
  const bytes = new Uint8Array(SHARE_TOKEN_BYTES);
  crypto.getRandomValues(bytes);
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** Whether `value` has the shape of a token (anything else is answered 404 without a lookup). */
export function looksLikeShareToken(value: string): boolean {
  return TOKEN_RE.test(value);
}

/** The public page's path of a token, relative to the server's root. */
export function sharePath(token: string): string {
  return `/s/${token}`;
}
