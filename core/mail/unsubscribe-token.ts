import { isMailList, type MailList } from "./model.ts";

const enc = new TextEncoder();

function toBase64url(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64url(s: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*$/.test(s) || s.length % 4 === 1) return null;
  try {
    const bin = atob(s.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (s.length % 4)) % 4));
    return Uint8Array.from(bin, (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

async function hmac(key: Uint8Array | string, data: string): Promise<Uint8Array> {
  const raw = typeof key === "string" ? enc.encode(key) : key;
  const k = await crypto.subtle.importKey("raw", raw as BufferSource, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", k, enc.encode(data)));
}

/** The key of unsubscribe tokens: HMAC-SHA256 of a fixed label under the server secret, so no other use of SECRET_KEY signs the same. */
function tokenKey(secret: string): Promise<Uint8Array> {
  return hmac(secret, "wks mail unsubscribe token v1");
}

/**
 * An unsubscribe token: `base64url(identity_id:list) . base64url(HMAC-SHA256(that, key))`, the
 * key derived from the server secret. No expiry (a link in a years-old mail must still work) and
 * no state: a forged or altered token fails the MAC.
 */
export async function unsubscribeToken(secret: string, identityId: string, list: MailList): Promise<string> {
  const payload = toBase64url(enc.encode(`${identityId}:${list}`));
  return `${payload}.${toBase64url(await hmac(await tokenKey(secret), payload))}`;
}

/** The identity and list a token names, or null: malformed, or not signed with this secret. */
export async function readUnsubscribeToken(secret: string, token: string): Promise<{ identity_id: string; list: MailList } | null> {
  if (token.length > 300) return null;
  const [payload, mac, extra] = token.split(".");
  if (extra !== undefined || !payload || !mac) return null;
  const given = fromBase64url(mac);
  const decoded = fromBase64url(payload);
  if (!given || !decoded || given.length !== 32) return null;
  const expected = await hmac(await tokenKey(secret), payload);
  let diff = 0;
  for (let i = 0; i < 32; i++) diff |= expected[i]! ^ given[i]!;
  if (diff !== 0) return null;
  const text = new TextDecoder().decode(decoded);
  const at = text.lastIndexOf(":");
  const identity_id = text.slice(0, at);
  const list = text.slice(at + 1);
  if (at <= 0 || !isMailList(list)) return null;
  return { identity_id, list };
}
