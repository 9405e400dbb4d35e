import { validationFailed } from "./errors.ts";

/**
 * The version a write expects, from the body's `expected_version`, the query's
 * `expected_version` and/or an `If-Match` header (`"3"`, `W/"3"` or `3`). Two sources that
 * disagree are a 400; `*` means any version.
 */
export function expectedVersion(bodyValue: number | undefined, ifMatch: string | undefined, queryValue?: string | number): number | undefined {
  let header: number | undefined;
  if (ifMatch !== undefined && ifMatch.trim() !== "*") {
    const m = /^\s*(?:W\/)?"?(\d{1,9})"?\s*$/.exec(ifMatch);
    if (!m) throw validationFailed("Invalid If-Match: expected a version such as \"3\"", [{ path: "header.if-match", message: "expected a version" }]);
    header = Number(m[1]);
  }
  let query: number | undefined;
  if (queryValue !== undefined) {
    if (typeof queryValue === "number" ? !Number.isSafeInteger(queryValue) || queryValue < 0 : !/^\d{1,9}$/.test(queryValue)) throw validationFailed("Invalid expected_version: expected an integer", [{ path: "query.expected_version", message: "expected an integer" }]);
    query = Number(queryValue);
  }
  const given = [bodyValue, query, header].filter((v): v is number => v !== undefined);
  if (given.some((v) => v !== given[0])) {
    throw validationFailed("Invalid If-Match: it disagrees with expected_version", [{ path: "header.if-match", message: "disagrees with expected_version" }]);
  }
  return given[0];
}
