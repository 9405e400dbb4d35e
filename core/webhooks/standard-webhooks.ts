import { constantTimeEqual } from "./signature.ts";

/**
 * Standard Webhooks (standardwebhooks.com): `webhook-signature` holds space-separated `v1,<base64
 * HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>">` under the secret's bytes (`whsec_`
 * + base64). Web Crypto only, so core stays runtime-neutral.
 */

/** How far a delivery's timestamp may be from now, either way. */
export const TIMESTAMP_TOLERANCE_S = 300;

export interface StandardWebhookHeaders {
  id: string | null;
  timestamp: string | null;
  signature: string | null;
}

function fromBase64(s: string): Uint8Array | null {
  try {
    return Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}
const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

/** The secret's key bytes, or null when it is not `whsec_<base64>` (a config check at start-up). */
export function standardWebhookKey(secret: string): Uint8Array | null {
  if (!secret.startsWith("whsec_")) return null;
  const key = fromBase64(secret.slice("whsec_".length));
  return key && key.length > 0 ? key : null;
}

/** The `v1,<base64>` signature a sender computes. */
export async function standardWebhookSignature(secret: string, id: string, timestamp: string, body: Uint8Array): Promise<string> {
  const key = standardWebhookKey(secret);
  if (!key) throw new Error("Invalid webhook secret: expected whsec_ followed by base64");
  const hmac = await crypto.subtle.importKey("raw", key as Uint8Array<ArrayBuffer>, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const prefix = new TextEncoder().encode(`${id}.${timestamp}.`);
  const content = new Uint8Array(prefix.length + body.length);
  content.set(prefix);
  content.set(body, prefix.length);
  return `v1,${toBase64(new Uint8Array(await crypto.subtle.sign("HMAC", hmac, content)))}`;
}

/**
 * Whether the delivery is signed with `secret` and its timestamp is within the tolerance of `now`.
 * Any of several space-separated signatures may match (a sender rotating its secret sends two).
 */
export async function verifyStandardWebhook(secret: string, h: StandardWebhookHeaders, body: Uint8Array, now: Date): Promise<boolean> {
  if (!h.id || !h.timestamp || !h.signature || !/^\d{1,12}$/.test(h.timestamp)) return false;
  if (Math.abs(now.getTime() / 1000 - Number(h.timestamp)) > TIMESTAMP_TOLERANCE_S) return false;
  const expected = await standardWebhookSignature(secret, h.id, h.timestamp, body);
  let ok = false;
  // Every candidate is compared, matched or not: the time taken does not say which one matched.
  for (const candidate of h.signature.split(" ")) if (constantTimeEqual(candidate, expected)) ok = true;
  return ok;
}
