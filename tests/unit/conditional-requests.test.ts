import { describe, expect, test } from "bun:test";
import { isAppError } from "../../core/kernel/errors.ts";
import { ifNoneMatchHits, setEtag, withEtag } from "../../server/http/etag.ts";
import { expectedVersion, parseIfMatch } from "../../server/http/expected-version.ts";

const refusal = (fn: () => unknown) => {
  try {
    fn();
    return null;
  } catch (e) {
    return isAppError(e) ? { code: e.code, details: e.details } : e;
  }
};

describe("If-Match: the version a write expects, read from the request", () => {
  test("parseIfMatch() reads a version in its quoted, weak and bare forms; * and no header name none", () => {
    expect(parseIfMatch('"3"')).toBe(3);
    expect(parseIfMatch('W/"4"')).toBe(4);
    expect(parseIfMatch(" 7 ")).toBe(7);
    expect(parseIfMatch("*")).toBeUndefined();
    expect(parseIfMatch(undefined)).toBeUndefined();
    expect(refusal(() => parseIfMatch("soon"))).toEqual({
      code: "VALIDATION_FAILED",
      details: [{ path: "header.if-match", message: "expected a version" }],
    });
  });

  test("expectedVersion() takes the body's, the query's or If-Match's version, and refuses two that disagree", () => {
    expect(expectedVersion({ headers: { "if-match": '"3"' } })).toBe(3);
    expect(expectedVersion({ body: { expected_version: 5 }, headers: {} })).toBe(5);
    expect(expectedVersion({ query: { expected_version: "6" }, headers: {} })).toBe(6);
    expect(expectedVersion({ body: { expected_version: 2 }, query: { expected_version: 2 }, headers: { "if-match": 'W/"2"' } })).toBe(2);
    expect(expectedVersion({ body: null, headers: { "if-match": "*" } })).toBeUndefined();
    expect(refusal(() => expectedVersion({ body: { expected_version: 2 }, headers: { "if-match": '"3"' } }))).toEqual({
      code: "VALIDATION_FAILED",
      details: [{ path: "header.if-match", message: "disagrees with expected_version" }],
    });
    expect(refusal(() => expectedVersion({ query: { expected_version: "two" }, headers: {} }))).toEqual({
      code: "VALIDATION_FAILED",
      details: [{ path: "query.expected_version", message: "expected an integer" }],
    });
  });
});

describe("ETag out, If-None-Match in", () => {
  test("withEtag() sets the quoted version and answers with the view; setEtag() from a version alone", () => {
    const set = { headers: {} as Record<string, unknown> };
    const view = { id: "x", version: 4 };
    expect(withEtag(set, view)).toBe(view);
    expect(set.headers.etag).toBe('"4"');
    setEtag(set, 9);
    expect(set.headers.etag).toBe('"9"');
  });

  test("ifNoneMatchHits() takes a list, weak forms and `*`", () => {
    expect(ifNoneMatchHits(undefined, '"a"')).toBe(false);
    expect(ifNoneMatchHits('"a"', '"a"')).toBe(true);
    expect(ifNoneMatchHits('"b", W/"a"', '"a"')).toBe(true);
    expect(ifNoneMatchHits("*", '"a"')).toBe(true);
    expect(ifNoneMatchHits('"b"', '"a"')).toBe(false);
    expect(ifNoneMatchHits("a", '"a"')).toBe(false);
  });
});
