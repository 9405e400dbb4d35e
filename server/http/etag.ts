/** The `set` of an Elysia handler: the answer's headers so far. */
type AnswerHeaders = { headers: Record<string, unknown> };

/** A versioned answer's `ETag` is its version, quoted: what `If-Match` takes back. */
export function setEtag(set: AnswerHeaders, version: number): void {
  set.headers.etag = `"${version}"`;
}

/**
 * Whether an `If-None-Match` value names `etag` (RFC 9110 §13.1.2: `*`, or a list of entity
 * tags compared weakly).
 */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === "*") return true;
  const opaque = (t: string) => t.trim().replace(/^W\//, "");
  return header.split(",").some((t) => opaque(t) === opaque(etag));
}

/** Sets the `ETag` of a view from its own version and answers with the view. */
export function withEtag<T extends { version: number }>(set: AnswerHeaders, view: T): T {
  setEtag(set, view.version);
  return view;
}
