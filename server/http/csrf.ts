import { encodeBase64urlNoPadding } from "@oslojs/encoding";
import { constantTimeEqual, hmac } from "../../core/kernel/mod.ts";

/**
 * The consent form's CSRF guard: a signed double-submit token. The page sets it in an `HttpOnly`,
 * `SameSite=Strict` cookie and in a hidden field; a decision is accepted only when the two are the
 * same and the token carries a valid HMAC under a key derived from the server secret. A site that
 * cannot read our cookie cannot forge the field, and a token it planted (a cookie set from a
 * sibling subdomain) fails the signature. Any instance sharing SECRET_KEY verifies it. Core's one
 * HMAC and constant-time comparison (ADR 060).
 */
export const CSRF_COOKIE = "oauth_csrf";
export const CSRF_FIELD = "csrf_token";

export function csrfGuard(secret: string | null | undefined) {
  const key = hmac("SHA-256", secret ?? crypto.getRandomValues(new Uint8Array(32)), "oauth-consent-csrf");
  const sign = (nonce: string, binding: string) => encodeBase64urlNoPadding(hmac("SHA-256", key, `${nonce}\0${binding}`));
  return {
    /**
     * A new token; `binding` ties it to the signed-in session (its id) when there is one, so that it
     * verifies only with that session: a token obtained otherwise, even planted with its cookie
     * from a sibling subdomain, does not decide for someone else (ADR 044).
     */
    issue(binding = ""): string {
      const nonce = encodeBase64urlNoPadding(crypto.getRandomValues(new Uint8Array(32)));
      return `${nonce}.${sign(nonce, binding)}`;
    },
    verify(cookie: string | null, field: string | null, binding = ""): boolean {
      if (!cookie || !field || cookie.length !== field.length || cookie.length > 200) return false;
      if (!constantTimeEqual(cookie, field)) return false;
      const [nonce, mac, extra] = cookie.split(".");
      if (!nonce || !mac || extra !== undefined) return false;
      const expected = sign(nonce, binding);
      return constantTimeEqual(expected, mac);
    },
  };
}

export type CsrfGuard = ReturnType<typeof csrfGuard>;

/** One cookie's value from a `Cookie` header, or null. */
export function cookieValue(header: string | null, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(";")) {
    const i = part.indexOf("=");
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return null;
}
