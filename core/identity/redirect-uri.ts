/**
 * Redirect URIs of OAuth clients: which may be registered, and whether a request's URI is one of
 * them. OAuth 2.1 §2.3.1 and RFC 8252 (native apps): `https`, or `http` on a loopback host only;
 * never a fragment (RFC 6749 §3.1.2).
 */
const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]", "localhost"]);

export const MAX_REDIRECT_URI_LENGTH = 2000;

export type RedirectUriCheck = { ok: true } | { ok: false; reason: string };

/** Whether `raw` may be registered as a redirect URI; the reason in words when not. */
export function checkRedirectUri(raw: string): RedirectUriCheck {
  if (raw.length === 0 || raw.length > MAX_REDIRECT_URI_LENGTH) {
    return { ok: false, reason: `Invalid redirect URI: expected 1 to ${MAX_REDIRECT_URI_LENGTH} characters` };
  }
  if (raw.includes("#")) return { ok: false, reason: "Invalid redirect URI: it must not have a fragment" };
  const url = parse(raw);
  if (!url) return { ok: false, reason: "Invalid redirect URI: not an absolute URL" };
  if (url.username !== "" || url.password !== "") return { ok: false, reason: "Invalid redirect URI: it must not carry credentials" };
  if (url.protocol === "https:") return { ok: true };
  if (url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname)) return { ok: true };
  return { ok: false, reason: "Invalid redirect URI: expected https, or http on 127.0.0.1, [::1] or localhost" };
}

/**
 * Whether `requested` is `registered`: the same string, except that on a loopback IP literal over
 * http any port matches (RFC 8252 §7.3). Compared as strings, not as parsed URLs, so a match is
 * never looser than equality: everything after the port (path, query) must be the same characters.
 */
export function redirectUriMatches(registered: string, requested: string): boolean {
  if (registered === requested) return true;
  const a = LOOPBACK_IP_ORIGIN.exec(registered);
  const b = LOOPBACK_IP_ORIGIN.exec(requested);
  if (!a || !b || a[1] !== b[1] || !validPort(a[2]) || !validPort(b[2])) return false;
  return registered.slice(a[0].length) === requested.slice(b[0].length);
}

/** `http://127.0.0.1` or `http://[::1]`, and its port if any, up to the path, query or end. */
const LOOPBACK_IP_ORIGIN = /^http:\/\/(127\.0\.0\.1|\[::1\])(?::(\d{1,5}))?(?=[/?]|$)/;

const validPort = (port: string | undefined) => port === undefined || Number(port) <= 65535;

/** The registered URI `requested` matches, or null. */
export function findRedirectUri(registered: readonly string[], requested: string): string | null {
  return registered.find((r) => redirectUriMatches(r, requested)) ?? null;
}

function parse(raw: string): URL | null {
  try {
    return new URL(raw);
  } catch {
    return null;
  }
}
