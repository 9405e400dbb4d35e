import { authenticateApiKey, type Authenticated } from "../../core/access/authenticate.ts";
import { assertInWorkspace } from "../../core/access/policy.ts";
import type { CoreDeps } from "../../core/deps.ts";
import { unauthenticated } from "../../core/kernel/errors.ts";

/** The caller's credentials, or null when the request carries none. Invalid credentials throw 401. */
export async function optionalPrincipal(deps: CoreDeps, headers: Headers): Promise<Authenticated | null> {
  const key = headers.get("x-api-key");
  if (key === null) return null;
  return authenticateApiKey(deps, key.trim());
}

export async function requirePrincipal(deps: CoreDeps, headers: Headers): Promise<Authenticated> {
  const auth = await optionalPrincipal(deps, headers);
  if (!auth) throw unauthenticated("Missing credentials: send an API key in the x-api-key header");
  return auth;
}

/**
 * Authenticates and checks tenancy for a `/workspaces/{slug}` route. The credential's lookup
 * already returned its workspace, so the common case costs one store round trip.
 */
export async function requireWorkspace(deps: CoreDeps, headers: Headers, slug: string): Promise<Authenticated> {
  const auth = await requirePrincipal(deps, headers);
  assertInWorkspace(auth.principal, auth.workspace.slug === slug ? auth.workspace : null);
  return auth;
}
