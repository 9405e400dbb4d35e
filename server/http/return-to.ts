/**
 * Where a sign-in may send the browser back to: a path of this service, or an absolute URL of its
 * origin (`PUBLIC_URL` or the request's), as a path. Anything else (another origin, a
 * scheme-relative `//host`, a backslash trick, a non-http scheme) is refused: null, and the caller
 * falls back to `/`. An open redirect after sign-in would hand the session's victim to a phishing page.
 */
export function safeReturnTo(raw: string | null | undefined, origins: string[]): string | null {
  if (!raw || raw.length > 2000) return null;
  // Browsers treat `\` as `/` and drop tabs and newlines in URLs: `/\evil.example` is another host.
  for (const c of raw) if (c === "\\" || c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f) return null;
  const base = origins[0]!;
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    return null;
  }
  if (!origins.includes(url.origin)) return null;
  if (!raw.startsWith("/") && !/^https?:\/\//i.test(raw)) return null;
  if (raw.startsWith("//")) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}
