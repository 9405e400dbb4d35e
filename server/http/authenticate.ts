import { assertInWorkspace, authenticateApiKey, type Authenticated, type Principal } from "../../core/access/mod.ts";
import { authenticateOAuthToken, isAccessTokenFormat, sessionPrincipal, sessionPrincipalOf } from "../../core/identity/mod.ts";
import { notFound, unauthenticated } from "../../core/kernel/mod.ts";
import type { Workspace } from "../../core/workspaces/mod.ts";
import type { ServerDeps } from "../deps.ts";
import { credentialOf } from "./credentials.ts";
import { type HeaderSink, sessionOf } from "./session-cookie.ts";

/**
 * The caller's principal, or null when the request carries no credential. Invalid credentials
 * throw 401. The credential is `Authorization: Bearer` or `x-api-key` (credentials.ts); a bearer
 * value shaped like an API key is one, a `wkat_` value an OAuth access token (its person's current
 * role in its workspace, its grant's scopes), any other is looked up as an API key, which refuses
 * it (401 `invalid_token`).
 */
export async function optionalPrincipal(deps: ServerDeps, headers: Headers): Promise<Authenticated | null> {
  const credential = credentialOf(headers);
  if (credential === null) return null;
  if (credential.scheme === "bearer" && isAccessTokenFormat(credential.value)) {
    const resolved = await authenticateOAuthToken(deps.core, credential.value);
    if (!resolved) throw unauthenticated("Invalid access token: unknown, expired or revoked, or its person is no longer a member");
    return resolved;
  }
  return authenticateApiKey(deps.core, credential.value);
}

export async function requirePrincipal(deps: ServerDeps, headers: Headers): Promise<Authenticated> {
  const auth = await optionalPrincipal(deps, headers);
  if (!auth) {
    throw unauthenticated("Missing credentials: send an API key as Authorization: Bearer <key> or in the x-api-key header");
  }
  return auth;
}

/** A request's context, for the dashboard session: its cookie, and the answer's headers (the cookie set again). */
export interface SessionContext {
  request: Request;
  set: HeaderSink;
}

const MISSING = "Missing credentials: send an API key as Authorization: Bearer <key> or in the x-api-key header, or sign in";

/**
 * Authenticates and checks tenancy for a `/workspaces/{slug}` route. The credential's lookup
 * already returned its workspace, so the common case costs one store round trip. With `ctx` and no
 * credential header, the dashboard session cookie is read: the person's membership of that
 * workspace is looked up (none: 404, like another workspace's key) and gives the role. A header
 * credential wins over the cookie (an API client's key is never mixed with a browser's session).
 */
export async function requireWorkspace(deps: ServerDeps, headers: Headers, slug: string, ctx?: SessionContext): Promise<Authenticated> {
  const auth = await optionalPrincipal(deps, headers);
  if (auth) {
    assertInWorkspace(auth.principal, auth.workspace.slug === slug ? auth.workspace : null);
    return auth;
  }
  const session = ctx ? await sessionOf(deps, ctx.request, ctx.set) : null;
  if (!session) throw unauthenticated(MISSING);
  const workspace = await deps.core.stores.workspaces.getBySlug(slug);
  const resolved = workspace ? await sessionPrincipal(deps.core, session, workspace) : null;
  if (!resolved) throw notFound("Workspace");
  return resolved;
}

/**
 * The caller of a route outside any workspace: a header credential's principal and workspace,
 * else the dashboard session's person with no workspace (an unsafe method needs this service's
 * `Origin`), else null.
 */
export async function optionalCaller(
  deps: ServerDeps,
  ctx: SessionContext,
): Promise<{ principal: Principal; workspace: Workspace | null } | null> {
  const auth = await optionalPrincipal(deps, ctx.request.headers);
  if (auth) return auth;
  const session = await sessionOf(deps, ctx.request, ctx.set);
  return session ? { principal: sessionPrincipalOf(session, "", null, null), workspace: null } : null;
}

/** The caller of a route outside any workspace (`GET /me`), as optionalCaller, or 401. */
export async function requireCaller(
  deps: ServerDeps,
  ctx: SessionContext,
): Promise<{ principal: Principal; workspace: Workspace | null }> {
  const caller = await optionalCaller(deps, ctx);
  if (!caller) throw unauthenticated(MISSING);
  return caller;
}
