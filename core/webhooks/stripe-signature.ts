import { encodeHexLowerCase } from "@oslojs/encoding";
import { constantTimeEqual, hmac } from "../kernel/mac.ts";
import { TIMESTAMP_TOLERANCE_S } from "./standard-webhooks.ts";

/**
 * Stripe's webhook signature scheme, in header `billing-signature` here: `t=<unix seconds>,v1=<hex>`
 * (several `v1` while a secret is rolled), each the hex HMAC-SHA256 of `"<t>.<raw body>"` under the
 * signing secret's bytes as written (`whsec_…` included). Through kernel's one HMAC (ADR 060).
 */
const encoder = new TextEncoder();

/** The hex signature of `body` sent at `t` (what a sender computes). */
export function stripeSignature(secret: string, t: string, body: Uint8Array): string {
  const prefix = encoder.encode(`${t}.`);
  const content = new Uint8Array(prefix.length + body.length);
  content.set(prefix);
  content.set(body, prefix.length);
  return encodeHexLowerCase(hmac("SHA-256", secret, content));
}

/** The header a sender writes: `t=<t>,v1=<hex>`. */
export function stripeSignatureHeader(secret: string, t: number, body: Uint8Array): string {
  return `t=${t},v1=${stripeSignature(secret, String(t), body)}`;
}

/**
 * Whether `header` signs `body` under `secret` with a `t` within 300 s of `now`; any of several
 * `v1` may match (every one is compared, so the time taken does not say which). A missing or
 * malformed header is false.
 */
export function verifyStripeSignature(secret: string, header: string | null | undefined, body: Uint8Array, now: Date): boolean {
  if (!header || header.length > 4096) return false;
  let t: string | null = null;
  const v1: string[] = [];
  for (const part of header.split(",")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    const k = part.slice(0, eq).trim();
    const v = part.slice(eq + 1).trim();
    if (k === "t") t = v;
    else if (k === "v1") v1.push(v.toLowerCase());
  }
  if (!t || !/^\d{1,12}$/.test(t) || v1.length === 0) return false;
  if (Math.abs(now.getTime() / 1000 - Number(t)) > TIMESTAMP_TOLERANCE_S) return false;
  const expected = stripeSignature(secret, t, body);
  let ok = false;
  for (const candidate of v1) if (constantTimeEqual(candidate, expected)) ok = true;
  return ok;
}
