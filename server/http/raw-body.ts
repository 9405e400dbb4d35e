import { Elysia } from "elysia";
import { isJson, parseJsonBody, readBoundedBody } from "./json-body.ts";

/**
 * The per-route opt-out of the JSON body parser. A receiver that verifies a signature over the
 * raw request bytes (an inbound webhook) must see exactly the bytes that were sent, not a parsed
 * and re-serialised document, so it declares `rawBody: true` on its route: its `body` is then a
 * Uint8Array of the bytes, and parsing them is the receiver's job once the signature holds.
 * Every other route gets `parseJsonBody` (strict JSON, no U+0000). docs/decisions/003-http-conventions.md.
 */

/** The request body as sent. */
async function readRawBody({ request }: { request: Request }): Promise<Uint8Array> {
  return new Uint8Array(await request.arrayBuffer());
}

/** `.use(rawBody)` lets a route declare `rawBody: true`. */
export const rawBody = new Elysia({ name: "raw-body" }).macro({ rawBody: { parse: readRawBody } });

/** What `body` is on a route that reads its request body as a stream itself (a records import). */
export const STREAMED_BODY = Symbol("streamed body");
/** Leaves the request body unread: the route's handler streams `request.body`. */
function leaveStreamed(): typeof STREAMED_BODY {
  return STREAMED_BODY;
}

/** `.use(streamedBody)` lets a route declare `streamedBody: true`. */
export const streamedBody = new Elysia({ name: "streamed-body" }).macro({ streamedBody: { parse: leaveStreamed } });

interface RouteTable {
  routes: ReadonlyArray<{ method: string; path: string; hooks?: { parse?: unknown } }>;
}

/** `METHOD path` of every route whose parse hooks include `hook` (a route that declared `rawBody` or `streamedBody`). */
function routesParsedBy(app: RouteTable, hook: unknown): Set<string> {
  const out = new Set<string>();
  for (const r of app.routes) {
    const hooks = ([] as unknown[]).concat(r.hooks?.parse ?? []);
    if (hooks.some((h) => h === hook || (h as { fn?: unknown } | null)?.fn === hook)) out.add(`${r.method} ${r.path}`);
  }
  return out;
}

/**
 * The app's one body parser (a global parse hook, so it runs before any route's own): JSON bodies
 * go through `parseJsonBody` unless the route declared `rawBody`. The routes are read from `app`
 * at the first request, once all of them are registered.
 */
export function jsonBodyParser(app: RouteTable, limitBytes: number) {
  let raw: Set<string> | null = null;
  let streamed: Set<string> | null = null;
  return ({ request, contentType, route }: { request: Request; contentType: string; route: string }) => {
    raw ??= routesParsedBy(app, readRawBody);
    streamed ??= routesParsedBy(app, leaveStreamed);
    const key = `${request.method} ${route}`;
    // A streamed body is the route's to read (it counts its bytes itself, upload-limits.ts).
    if (streamed.has(key)) return undefined;
    // A raw body is read here too, bounded as it streams (readRawBody then has nothing to do).
    if (raw.has(key)) return readBoundedBody(request, limitBytes);
    if (!isJson(contentType)) return undefined;
    return parseJsonBody(request, limitBytes);
  };
}
