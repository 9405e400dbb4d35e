/** The `set` of an Elysia handler: the answer's headers so far. */
type AnswerHeaders = { headers: Record<string, unknown> };

/** A versioned answer's `ETag` is its version, quoted: what `If-Match` takes back. */
export function setEtag(set: AnswerHeaders, version: number): void {
  set.headers.etag = `"${version}"`;
}

/** Sets the `ETag` of a view from its own version and answers with the view. */
export function withEtag<T extends { version: number }>(set: AnswerHeaders, view: T): T {
  setEtag(set, view.version);
  return view;
}
