import { authenticateApiKey, type Authenticated } from "../../core/access/authenticate.ts";
import { assertInWorkspace } from "../../core/access/policy.ts";
import { authenticateOAuthToken } from "../../core/identity/principal.ts";
import { isAccessTokenFormat } from "../../core/identity/token-format.ts";
import { unauthenticated } from "../../core/kernel/errors.ts";
import type { ServerDeps } from "../deps.ts";
import { credentialOf } from "./credentials.ts";

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

/**
 * Authenticates and checks tenancy for a `/workspaces/{slug}` route. The credential's lookup
 * already returned its workspace, so the common case costs one store round trip.
 */
export async function requireWorkspace(deps: ServerDeps, headers: Headers, slug: string): Promise<Authenticated> {
  const auth = await requirePrincipal(deps, headers);
  assertInWorkspace(auth.principal, auth.workspace.slug === slug ? auth.workspace : null);
  return auth;
}
