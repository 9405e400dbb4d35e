/**
 * Answers whose encoded JSON is kept beside the store answer they were built from (ADR 049): a
 * tag page or a search, 50 views of about 45 KB. A kept encoding is sent as it is: the views,
 * the response check and `JSON.stringify` ran once, when it was built. Otherwise the route answers
 * its page as any route does (Elysia checks and cleans it against the declared schema), and the
 * route's `mapResponse` hook encodes that checked value once, keeps it and sends it: what is kept
 * is what was sent.
 *
 * Both leave through the hook as a string, which Elysia answers with `new Response(text, set)`
 * as it answers a JSON value with `Response.json(value, set)`. A `Response` returned as such would
 * be copied by Elysia into another, its body read back as a stream and its headers merged one by
 * one (~25 µs a page in the profile).
 */

/** What Elysia's JSON answers carry (Bun's `Response.json`). */
const JSON_TYPE = "application/json;charset=utf-8";

/** Per request until its answer leaves: the kept encoding to send, or how to keep the one sent. */
const pending = new WeakMap<Request, string | ((json: string) => void)>();

/**
 * What a route returns for a kept encoding: a `Response`, which Elysia does not check against the
 * route's schema, standing in for the encoding that `sendAndKeep` sends. Were the hook missing, it
 * would answer a 500, never an empty page. Typed `never`: Elysia types a handler's answer as its
 * schema's or a `Response`, not either (as routes/blog/blog.ts's 304).
 */
export function keptAnswer(request: Request, json: string): never {
  pending.set(request, json);
  return new Response(null, { status: 500 }) as never;
}

/** Keep the encoding of the answer the route is about to send to `request` (`sendAndKeep` does). */
export function keepAnswer(request: Request, keep: ((json: string) => void) | null): void {
  if (keep) pending.set(request, keep);
}

/**
 * The `mapResponse` hook of a route whose answers may be kept (after Elysia's response check):
 * sends the kept encoding, or encodes the checked answer, keeps it and sends it. Nothing pending:
 * Elysia answers as usual. Typed as answering a `Response`, as Elysia types these hooks; it maps
 * what a hook returns as it maps what a handler returns, and a string is `new Response(text, set)`.
 */
export function sendAndKeep(
  c: { request: Request; responseValue: unknown; set: { headers: Record<string, unknown> } },
): Response | undefined {
  const kept = pending.get(c.request);
  if (kept === undefined) return undefined;
  pending.delete(c.request);
  c.set.headers["content-type"] = JSON_TYPE;
  if (typeof kept === "string") return kept as unknown as Response;
  const json = JSON.stringify(c.responseValue);
  kept(json);
  return json as unknown as Response;
}
