import { decodeBase64urlIgnorePadding, encodeBase64urlNoPadding } from "@oslojs/encoding";
import { constantTimeEqual, hmac } from "../../core/kernel/mod.ts";

/**
 * Short-lived signed values for cookies (the OpenID Connect sign-in's state): base64url JSON, a
 * `.`, and its HMAC-SHA256 under a key derived from the server secret for one purpose, with an
 * expiry inside. Any instance sharing SECRET_KEY reads them; a value altered, expired or signed for
 * another purpose is null. Not encrypted: what it carries stays in the browser's HttpOnly cookie.
 * Core's one HMAC and constant-time comparison (ADR 060).
 */
export function signedValues(secret: string | null | undefined, purpose: string) {
  const key = hmac("SHA-256", secret ?? crypto.getRandomValues(new Uint8Array(32)), `signed-value:${purpose}`);
  const mac = (payload: string) => encodeBase64urlNoPadding(hmac("SHA-256", key, payload));
  return {
    seal(value: Record<string, unknown>, ttlMs: number, now = Date.now()): string {
      const payload = encodeBase64urlNoPadding(new TextEncoder().encode(JSON.stringify({ ...value, exp: now + ttlMs })));
      return `${payload}.${mac(payload)}`;
    },
    open<T>(sealed: string | null, now = Date.now()): T | null {
      if (!sealed || sealed.length > 4000) return null;
      const [payload, sig, extra] = sealed.split(".");
      if (!payload || !sig || extra !== undefined) return null;
      const expected = mac(payload);
      if (!constantTimeEqual(expected, sig)) return null;
      try {
        const value = JSON.parse(new TextDecoder().decode(decodeBase64urlIgnorePadding(payload))) as T & { exp?: unknown };
        return typeof value.exp === "number" && value.exp > now ? value : null;
      } catch {
        return null;
      }
    },
  };
}
