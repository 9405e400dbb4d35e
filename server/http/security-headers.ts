/**
 * The response headers the OWASP REST Security Cheat Sheet asks of an API, set in one place: the
 * first hook of every request writes them into Elysia's per-request `set.headers`, which Elysia
 * merges into whatever answers the request (a handler's value, a `Response` built by a route or by
 * the error envelope, Elysia's own 404, validation and parse errors, early 413s and 429s).
 *
 * They are defaults, not overrides: an answer that needs another policy replaces one by name. The
 * HTML pages do (share pages and the API reference carry their own Content-Security-Policy), and so
 * does the API reference's versioned script bundle (cached for a year rather than `no-store`).
 * See [ADR 013](../../docs/decisions/013-security-headers-and-offline-reference.md).
 */
import { Elysia } from "elysia";

/**
 * On every answer. `no-store` on all of them rather than on authenticated and secret-bearing ones
 * only: public JSON answers (health, version, the OpenAPI document) gain nothing from caches, and
 * one rule cannot miss a route that starts carrying a secret.
 */
export const API_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "x-content-type-options": "nosniff",
  "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
};

/** Two years, subdomains included: the value the HSTS preload list asks for, without `preload` itself. */
export const STRICT_TRANSPORT_SECURITY = "max-age=63072000; includeSubDomains";

/**
 * Whether the client reached this service over https: the request URL's scheme (Bun serving TLS
 * itself), or, behind a proxy the operator trusts (`TRUST_PROXY`), the first `X-Forwarded-Proto`
 * hop, as the client address is the first `X-Forwarded-For` hop. An untrusted client could
 * otherwise only make its own answer carry HSTS, but the header would then lie about the service.
 */
export function servedOverHttps(request: Request, trustProxy: boolean): boolean {
  if (request.url.startsWith("https:")) return true;
  if (!trustProxy) return false;
  const forwarded = request.headers.get("x-forwarded-proto");
  return forwarded !== null && forwarded.split(",")[0]!.trim().toLowerCase() === "https";
}

/** The hook, as a plugin: `root.use(securityHeaders(trustProxy))` before every route. */
export function securityHeaders(trustProxy: boolean) {
  return new Elysia({ name: "security-headers" }).onRequest(({ request, set }) => {
    const headers = set.headers as Record<string, string>;
    Object.assign(headers, API_SECURITY_HEADERS);
    if (servedOverHttps(request, trustProxy)) headers["strict-transport-security"] = STRICT_TRANSPORT_SECURITY;
  });
}
