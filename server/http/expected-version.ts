import { validationFailed } from "../../core/kernel/mod.ts";

/**
 * The version a write is based on, as a request may say it: the body's `expected_version`, the
 * query's `expected_version`, an `If-Match` header. Reconciling them is the HTTP edge's job; the
 * use cases take one number and answer 409 `VERSION_CONFLICT` when it is stale.
 */
export interface VersionSources {
  body?: { expected_version?: number } | null;
  query?: { expected_version?: string | number };
  headers: { "if-match"?: string };
}

/** `If-Match`: `"3"`, `W/"3"` or `3` name a version; `*` (any version) and no header name none. */
export function parseIfMatch(header: string | undefined): number | undefined {
  if (header === undefined || header.trim() === "*") return undefined;
  const m = /^\s*(?:W\/)?"?(\d{1,9})"?\s*$/.exec(header);
  if (!m) {
    throw validationFailed('Invalid If-Match: expected a version such as "3"', [{
      path: "header.if-match",
      message: "expected a version",
    }]);
  }
  return Number(m[1]);
}

function parseQueryVersion(raw: string | number | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw === "number" ? !Number.isSafeInteger(raw) || raw < 0 : !/^\d{1,9}$/.test(raw)) {
    throw validationFailed("Invalid expected_version: expected an integer", [{
      path: "query.expected_version",
      message: "expected an integer",
    }]);
  }
  return Number(raw);
}

/** The one version the request expects, or undefined for none. Sources that disagree are a 400. */
export function expectedVersion({ body, query, headers }: VersionSources): number | undefined {
  const header = parseIfMatch(headers["if-match"]);
  const fromQuery = parseQueryVersion(query?.expected_version);
  const given = [body?.expected_version, fromQuery, header].filter((v): v is number => v !== undefined);
  if (given.some((v) => v !== given[0])) {
    throw validationFailed("Invalid If-Match: it disagrees with expected_version", [{
      path: "header.if-match",
      message: "disagrees with expected_version",
    }]);
  }
  return given[0];
}
