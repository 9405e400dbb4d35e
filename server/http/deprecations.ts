/**
 * Paths the API still answers but will stop answering: what `GET /version` lists and the headers
 * every answer of such a path carries (RFC 9745 `Deprecation`, RFC 8594 `Sunset`, and a
 * `successor-version` link, RFC 5829).
 */
export interface DeprecatedPath {
  /** The deprecated path segment under `/workspaces/{slug}`. */
  path: string;
  /** What replaces it. */
  successor: string;
  deprecated_at: string;
  sunset_at: string;
}

export const WATCHERS_DEPRECATION: DeprecatedPath = {
  path: "/watchers",
  successor: "/topics",
  deprecated_at: "2026-11-22T00:00:00Z",
  sunset_at: "2027-06-01T00:00:00Z",
};

export const DEPRECATIONS: readonly DeprecatedPath[] = [WATCHERS_DEPRECATION];

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The headers of an answer of a deprecated path at `url`: `Deprecation: @<unix seconds>`
 * (RFC 9745 §2.1), `Sunset: <HTTP date>` (RFC 8594) and `Link: <the same request on the
 * successor>; rel="successor-version"`.
 */
export function deprecationHeaders(d: DeprecatedPath, url: URL): Record<string, string> {
  const segment = new RegExp(`${escapeRegex(d.path)}(?=/|$)`);
  return {
    deprecation: `@${Date.parse(d.deprecated_at) / 1000}`,
    sunset: new Date(d.sunset_at).toUTCString(),
    link: `<${url.pathname.replace(segment, d.successor)}${url.search}>; rel="successor-version"`,
  };
}

const AT = DEPRECATIONS.map((d) => ({ d, under: new RegExp(`/workspaces/[^/]+${escapeRegex(d.path)}(?=/|$)`) }));

/**
 * The deprecated path `url` is under, with its headers; none for any other. For the answers no
 * route of the alias writes: a body that is not JSON (refused before the route's own hooks run),
 * a method the path does not declare.
 */
export function deprecationHeadersAt(url: URL): Record<string, string> {
  const found = AT.find((a) => a.under.test(url.pathname));
  return found ? deprecationHeaders(found.d, url) : {};
}
