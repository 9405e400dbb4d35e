import { authenticateApiKey } from "../../core/access/authenticate.ts";
import type { Scope } from "../../core/access/scopes.ts";
import type { CoreDeps } from "../../core/deps.ts";
import type { ServerDeps } from "../../server/deps.ts";

/**
 * A stand-in for the OAuth token store, for tests only (ServerDeps.resolveBearerToken): each token
 * acts as the person of an API key, over OAuth, with the given scopes. Until the authorization
 * server issues tokens, this is how the HTTP and MCP tests reach a principal with fewer scopes
 * than an API key holds.
 */
export function scopedTokens(
  core: () => CoreDeps,
  tokens: Record<string, () => { apiKey: string; scopes: Scope[] }>,
): NonNullable<ServerDeps["resolveBearerToken"]> {
  return async (token) => {
    const grant = tokens[token]?.();
    if (!grant) return null;
    const auth = await authenticateApiKey(core(), grant.apiKey);
    return { ...auth, principal: { ...auth.principal, via: "oauth", scopes: grant.scopes } };
  };
}
