import type { CoreDeps } from "../kernel/deps.ts";
import { isExpired } from "./lifetimes.ts";
import type { Scope } from "./model.ts";
import type { IdentityStores } from "./ports.ts";
import { hashSecret, isAccessTokenFormat } from "./token-format.ts";

type AuthDeps = CoreDeps<Pick<IdentityStores, "oauthGrants" | "oauthTokens">>;

/** Who an access token acts for. The caller resolves the person's current membership and role. */
export interface AccessTokenAuth {
  identity_id: string;
  workspace_id: string;
  client_id: string;
  scopes: Scope[];
  grant_id: string;
  issuer: string;
  expires_at: string;
}

/** A grant's `last_used_at` is written at most this often by authentications. */
export const GRANT_TOUCH_INTERVAL_MS = 60_000;

/**
 * An access token's principal facts, or null: unknown, malformed, expired, revoked on its own, or
 * of a revoked grant. Revocation bites at once: the grant is read with the token on every call.
 */
export async function authenticateAccessToken(deps: AuthDeps, raw: string): Promise<AccessTokenAuth | null> {
  if (!isAccessTokenFormat(raw)) return null;
  const found = await deps.stores.oauthTokens.findAccess(hashSecret(raw));
  if (!found) return null;
  const { token, grant } = found;
  const now = deps.clock.now();
  if (token.revoked_at !== null || grant.revoked_at !== null || isExpired(token.expires_at, now)) return null;
  if (grant.last_used_at === null || now.getTime() - new Date(grant.last_used_at).getTime() >= GRANT_TOUCH_INTERVAL_MS) {
    await deps.stores.oauthGrants.touch(grant.workspace_id, grant.id, now.toISOString());
  }
  return {
    identity_id: grant.identity_id,
    workspace_id: grant.workspace_id,
    client_id: grant.client_id,
    scopes: [...grant.scopes],
    grant_id: grant.id,
    issuer: grant.issuer,
    expires_at: token.expires_at,
  };
}
