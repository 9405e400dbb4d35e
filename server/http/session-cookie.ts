import { type Session, validateSession } from "../../core/identity/mod.ts";
import { forbidden } from "../../core/kernel/mod.ts";
import type { ServerDeps } from "../deps.ts";
import { cookieValue } from "./csrf.ts";
import { publicOrigin } from "./public-origin.ts";

/**
 * The dashboard session's cookie (docs/decisions/030-sessions-oidc-identity-webhook.md): the
 * session token (core/identity/sessions.ts) in `wks_session`, `HttpOnly`, `SameSite=Lax`, `Path=/`,
 * `Secure` when the public origin is https, expiring with the session. A request riding it with an
 * unsafe method needs an `Origin` of this service (lucia-auth.com's CSRF rule), else 403.
 */
export const SESSION_COOKIE = "wks_session";

const UNSAFE = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** Headers a handler may add to (Elysia's `set`). */
export interface HeaderSink {
  headers: Record<string, unknown>;
}

const secureOf = (origin: string) => (origin.startsWith("https:") ? "; Secure" : "");

export function sessionCookie(token: string, expiresAt: string, origin: string): string {
  return `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax; Expires=${new Date(expiresAt).toUTCString()}${secureOf(origin)}`;
}

export function clearedSessionCookie(origin: string): string {
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secureOf(origin)}`;
}

/** Adds a `Set-Cookie` to what the answer already sets (Elysia keeps one value per header name otherwise). */
export function appendSetCookie(set: HeaderSink, cookie: string): void {
  const current = set.headers["set-cookie"];
  set.headers["set-cookie"] = current === undefined ? cookie : Array.isArray(current) ? [...current, cookie] : [current as string, cookie];
}

export const originOf = (deps: ServerDeps, request: Request) => publicOrigin(request, deps.config.publicUrl, deps.rateLimits.trustProxy);

/** Whether the request's `Origin` is this service's: `PUBLIC_URL` (or the proxied origin) or the request's own. */
export function isSameOrigin(deps: ServerDeps, request: Request): boolean {
  const origin = request.headers.get("origin");
  if (!origin) return false;
  return origin === originOf(deps, request) || origin === new URL(request.url).origin;
}

/** Refuses an unsafe request riding the session cookie from another origin (or with no `Origin`): 403. */
export function assertSameOriginIfUnsafe(deps: ServerDeps, request: Request): void {
  if (UNSAFE.has(request.method) && !isSameOrigin(deps, request)) {
    throw forbidden("Cannot accept this request: a request signed in by cookie must come from this service's own pages (Origin)");
  }
}

export const sessionTokenOf = (request: Request) => cookieValue(request.headers.get("cookie"), SESSION_COOKIE);

/**
 * The request's dashboard session, or null (no cookie, or an unknown, expired or ended session,
 * whose cookie is then cleared). An unsafe method from another origin is a 403 before the session
 * is read. A session used with under half of its 30 days left is extended, and the cookie set again.
 */
export async function sessionOf(deps: ServerDeps, request: Request, set: HeaderSink): Promise<Session | null> {
  if (!sessionTokenOf(request)) return null;
  assertSameOriginIfUnsafe(deps, request);
  return readSession(deps, request, set);
}

/**
 * The consent form's post (ADR 044): the consent page is served with `Referrer-Policy: no-referrer`,
 * under which browsers send its form's post with `Origin: null` (Fetch, "append a request Origin
 * header"). That one opaque value is let through here, and only because the caller then requires
 * the page's CSRF token bound to this very session; another site's `Origin`, or none, is still 403.
 */
export async function consentFormSessionOf(deps: ServerDeps, request: Request, set: HeaderSink): Promise<Session | null> {
  if (!sessionTokenOf(request)) return null;
  if (request.headers.get("origin") !== "null") assertSameOriginIfUnsafe(deps, request);
  return readSession(deps, request, set);
}

/** The session of the request's cookie, or null (its cookie then cleared); extended when under half is left. */
async function readSession(deps: ServerDeps, request: Request, set: HeaderSink): Promise<Session | null> {
  const token = sessionTokenOf(request);
  if (!token) return null;
  const origin = originOf(deps, request);
  const valid = await validateSession(deps.core, token);
  if (!valid) {
    appendSetCookie(set, clearedSessionCookie(origin));
    return null;
  }
  if (valid.extended) appendSetCookie(set, sessionCookie(token, valid.session.expires_at, origin));
  return valid.session;
}
