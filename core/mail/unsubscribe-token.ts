import { constantTimeEqual, hmac } from "../kernel/mac.ts";
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

/** The key of unsubscribe tokens: HMAC-SHA256 of a fixed label under the server secret, so no other use of SECRET_KEY signs the same. */
function tokenKey(secret: string): Uint8Array {
  return hmac("SHA-256", secret, "wks mail unsubscribe token v1");
}

/**
 * An unsubscribe token: `base64url(identity_id:list) . base64url(HMAC-SHA256(that, key))`, the
 * key derived from the server secret. No expiry (a link in a years-old mail must still work) and
 * no state: a forged or altered token fails the MAC.
 */
export function unsubscribeToken(secret: string, identityId: string, list: MailList): string {
  const payload = toBase64url(enc.encode(`${identityId}:${list}`));
  return `${payload}.${toBase64url(hmac("SHA-256", tokenKey(secret), payload))}`;
}

/** The identity and list a token names, or null: malformed, or not signed with this secret. */
export function readUnsubscribeToken(secret: string, token: string): { identity_id: string; list: MailList } | null {
  if (token.length > 300) return null;
  const [payload, mac, extra] = token.split(".");
  if (extra !== undefined || !payload || !mac) return null;
  const given = fromBase64url(mac);
  const decoded = fromBase64url(payload);
  if (!given || !decoded || given.length !== 32) return null;
  if (!constantTimeEqual(hmac("SHA-256", tokenKey(secret), payload), given)) return null;
  const text = new TextDecoder().decode(decoded);
  const at = text.lastIndexOf(":");
  const identity_id = text.slice(0, at);
  const list = text.slice(at + 1);
  if (at <= 0 || !isMailList(list)) return null;
  return { identity_id, list };
}
