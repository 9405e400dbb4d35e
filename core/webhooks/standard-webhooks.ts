import { encodeBase64 } from "@oslojs/encoding";
import { constantTimeEqual, hmac } from "../kernel/mac.ts";

/**
 * Standard Webhooks (standardwebhooks.com): `webhook-signature` holds space-separated `v1,<base64
 * HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>">` under the secret's bytes (`whsec_`
 * + base64). Both sides: the inbound receivers verify with it, and outbound deliveries sign with
 * the same code (`signStandardWebhook`, ADR 060).
 */

/** How far a delivery's timestamp may be from now, either way. */
export const TIMESTAMP_TOLERANCE_S = 300;

export interface StandardWebhookHeaders {
  id: string | null;
  timestamp: string | null;
  signature: string | null;
}

/** Lenient as it always was (atob: padding optional), so a secret accepted before still starts. */
function fromBase64(s: string): Uint8Array | null {
  try {
    return Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

/** The secret's key bytes, or null when it is not `whsec_<base64>` (a config check at start-up). */
export function standardWebhookKey(secret: string): Uint8Array | null {
  if (!secret.startsWith("whsec_")) return null;
  const key = fromBase64(secret.slice("whsec_".length));
  return key && key.length > 0 ? key : null;
}

/** The `v1,<base64>` signature a sender computes. */
export function standardWebhookSignature(secret: string, id: string, timestamp: string, body: Uint8Array): string {
  const key = standardWebhookKey(secret);
  if (!key) throw new Error("Invalid webhook secret: expected whsec_ followed by base64");
  const prefix = new TextEncoder().encode(`${id}.${timestamp}.`);
  const content = new Uint8Array(prefix.length + body.length);
  content.set(prefix);
  content.set(body, prefix.length);
  return `v1,${encodeBase64(hmac("SHA-256", key, content))}`;
}

/** The three headers a sender writes for `body`, delivery `id`, sent at `at`. */
export function signStandardWebhook(secret: string, id: string, at: Date, body: Uint8Array): StandardWebhookHeaders {
  const timestamp = String(Math.floor(at.getTime() / 1000));
  return { id, timestamp, signature: standardWebhookSignature(secret, id, timestamp, body) };
}

/**
 * Whether the delivery is signed with `secret` and its timestamp is within the tolerance of `now`.
 * Any of several space-separated signatures may match (a sender rotating its secret sends two).
 */
export function verifyStandardWebhook(secret: string, h: StandardWebhookHeaders, body: Uint8Array, now: Date): boolean {
  if (!h.id || !h.timestamp || !h.signature || !/^\d{1,12}$/.test(h.timestamp)) return false;
  if (Math.abs(now.getTime() / 1000 - Number(h.timestamp)) > TIMESTAMP_TOLERANCE_S) return false;
  const expected = standardWebhookSignature(secret, h.id, h.timestamp, body);
  let ok = false;
  // Every candidate is compared, matched or not: the time taken does not say which one matched.
  for (const candidate of h.signature.split(" ")) if (constantTimeEqual(candidate, expected)) ok = true;
  return ok;
}
