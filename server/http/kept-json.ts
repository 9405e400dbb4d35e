/**
 * Answers whose encoded JSON is kept beside the store answer they were built from (ADR 049): a
 * tag page or a search, 50 views of about 45 KB. A kept encoding is sent as it is: the views,
 * the response check and `JSON.stringify` ran once, when it was built. Otherwise the route answers
 * its page as any route does (Elysia checks and cleans it against the declared schema), and the
 * route's `mapResponse` hook encodes that checked value once, keeps it and sends it: what is kept
 * is what was sent.
 */

/** What Elysia's JSON answers carry (Bun's `Response.json`). */
const JSON_TYPE = "application/json;charset=utf-8";

/** How to keep the encoding of the answer being sent to a request, until it is sent. */
const keepers = new WeakMap<Request, (json: string) => void>();

/**
 * An answer of already encoded JSON (the route's headers are added by Elysia as to any answer).
 * Typed `never` where a route returns it: Elysia types a handler's answer as its schema's or a
 * `Response`, not either (as blog.ts's 304).
 */
export function jsonAnswer(json: string): Response {
  return new Response(json, { headers: { "content-type": JSON_TYPE } });
}

/** Keep the encoding of the answer the route is about to send to `request` (`sendAndKeep` does). */
export function keepAnswer(request: Request, keep: ((json: string) => void) | null): void {
  if (keep) keepers.set(request, keep);
}

/**
 * The `mapResponse` hook of a route whose answers may be kept: after Elysia's response check, it
 * encodes the checked answer, keeps the encoding and sends it. Nothing to keep: Elysia answers.
 */
export function sendAndKeep(c: { request: Request; responseValue: unknown }): Response | undefined {
  const keep = keepers.get(c.request);
  if (keep === undefined) return undefined;
  keepers.delete(c.request);
  const json = JSON.stringify(c.responseValue);
  keep(json);
  const answer = jsonAnswer(json);
  return answer;
}
