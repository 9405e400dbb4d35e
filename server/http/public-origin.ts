/**
 * The service's external origin (`PUBLIC_URL`): what links, the protected-resource metadata and
 * authentication challenges name. Configured, it is that; unset, the request's own origin, or
 * with TRUST_PROXY the proxy's `X-Forwarded-Proto` and `X-Forwarded-Host` (first hop each).
 */
export function publicOrigin(request: Request, publicUrl: string | null | undefined, trustProxy: boolean): string {
  if (publicUrl) return publicUrl;
  const url = new URL(request.url);
  if (trustProxy) {
    const host = request.headers.get("x-forwarded-host")?.split(",")[0]?.trim();
    const proto = request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim();
    if (host && /^[A-Za-z0-9.:[\]-]+$/.test(host)) {
      return `${proto === "http" || proto === "https" ? proto : url.protocol.slice(0, -1)}://${host}`;
    }
  }
  return url.origin;
}

/** Where this service's RFC 9728 protected-resource metadata is. */
export const PROTECTED_RESOURCE_PATH = "/.well-known/oauth-protected-resource";

/**
 * `PUBLIC_URL` checked at start-up: an absolute http(s) origin, nothing after it but an optional
 * `/`. Returns the origin (no trailing slash); null when unset; throws on anything else.
 */
export function parsePublicUrl(raw: string | undefined): string | null {
  if (raw === undefined || raw.trim() === "") return null;
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new Error(`Invalid PUBLIC_URL: not an absolute URL: "${raw}"`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new Error(`Invalid PUBLIC_URL: expected an http(s) origin, got "${raw}"`);
  }
  if (url.username || url.password || url.pathname !== "/" || url.search || url.hash || raw.trim().endsWith("?") || raw.includes("#")) {
    throw new Error(
      `Invalid PUBLIC_URL: expected an origin such as https://kb.example.com, with no path, query, fragment or user, got "${raw}"`,
    );
  }
  return url.origin;
}
