import { Type } from "@sinclair/typebox";
import { fail, type IdentityError, ok, type Result, type TokenParams } from "../../../core/identity/mod.ts";
import { OAUTH_STATUS_OF } from "../../http/error-status.ts";
import type { HeaderSink } from "../../http/session-cookie.ts";

/** The OAuth endpoints' answers that are not the API's envelope (ADR 029), and the form they read. */

export const OAuthError = Type.Object(
  {
    error: Type.String({ description: "An RFC 6749 §5.2 / RFC 7591 §3.2.2 error code." }),
    error_description: Type.Optional(Type.String()),
  },
  { description: "An OAuth error (RFC 6749 §5.2), not the API's envelope: OAuth clients read this shape." },
);

const NO_STORE = { "content-type": "application/json", "cache-control": "no-store", pragma: "no-cache" } as const;

/** An RFC 6749 §5.2 error answer; `basic`: the client tried HTTP Basic, so a 401 names that scheme. */
export function oauthError(e: IdentityError, opts: { basic?: boolean } = {}): Response {
  const status = OAUTH_STATUS_OF[e.code];
  const headers: Record<string, string> = { ...NO_STORE };
  if (status === 401 && opts.basic) headers["www-authenticate"] = 'Basic realm="oauth", charset="UTF-8"';
  return new Response(JSON.stringify({ error: e.code, error_description: e.description }), { status, headers });
}

/** A token answer (RFC 6749 §5.1): 200, never cached. */
export const tokenAnswer = (value: unknown) => new Response(JSON.stringify(value), { status: 200, headers: { ...NO_STORE } });

/** Whether the request tried HTTP Basic client authentication. */
export const triedBasic = (request: Request) => /^basic\s/i.test(request.headers.get("authorization") ?? "");

/** The token and revocation endpoints' parameters (RFC 6749 §4.1.3, §6; RFC 7009 §2.1; RFC 8707): others are ignored. */
const FORM_PARAMETERS = new Set([
  "grant_type",
  "code",
  "code_verifier",
  "redirect_uri",
  "refresh_token",
  "scope",
  "client_id",
  "client_secret",
  "token",
  "token_type_hint",
  "resource",
]);

/**
 * Form parameters (RFC 6749 §3.2: form-encoded, no parameter twice); an error when malformed.
 * Only the parameters these endpoints read: unrecognized ones are ignored (§3.1, §3.2), repeated
 * or not.
 */
export function formOf(request: Request, body: unknown): Result<TokenParams> {
  if (!/^application\/x-www-form-urlencoded\b/i.test(request.headers.get("content-type") ?? "")) {
    return fail("invalid_request", "Invalid request: the body must be application/x-www-form-urlencoded");
  }
  const params = new URLSearchParams(new TextDecoder().decode(body as Uint8Array));
  const out = new Map<string, string>();
  for (const [k, v] of params) {
    if (!FORM_PARAMETERS.has(k)) continue;
    if (out.has(k)) return fail("invalid_request", `Invalid request: parameter ${k} is repeated`);
    out.set(k, v);
  }
  return ok(out);
}

/** The response with the cookies a session read set (its extension, or the clearing of a stale one). */
export function withCookies(response: Response, sink: HeaderSink): Response {
  const c = sink.headers["set-cookie"];
  for (const v of c === undefined ? [] : Array.isArray(c) ? c : [c]) response.headers.append("set-cookie", String(v));
  return response;
}

/** The decision's way back to the client: a 303, never cached. */
export const redirect = (location: string) => new Response(null, { status: 303, headers: { location, "cache-control": "no-store" } });
