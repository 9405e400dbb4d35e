import type { CoreDeps } from "../kernel/deps.ts";
import type { ClientCredentials } from "./client-credentials.ts";
import { authenticateClient } from "./clients.ts";
import { fail, ok, type Result } from "./errors.ts";
import type { OAuthClient } from "./model.ts";
import type { IdentityStores } from "./ports.ts";
import { emitGrantEvent } from "./grant-events.ts";
import type { TokenParams } from "./token-exchange.ts";
import { hashSecret, isAccessTokenFormat, isRefreshTokenFormat } from "./token-format.ts";

type RevokeDeps = CoreDeps<Pick<IdentityStores, "oauthGrants" | "oauthTokens">>;

/**
 * The revocation endpoint (RFC 7009 §2.1): the client authenticates as it registered
 * (clients.ts), then `token` is required; the rest is revokeToken's.
 */
export async function revokeClientToken(
  deps: CoreDeps<Pick<IdentityStores, "oauthClients" | "oauthGrants" | "oauthTokens">>,
  req: { credentials: ClientCredentials; params: TokenParams },
): Promise<Result<void>> {
  const client = await authenticateClient(deps, req.credentials);
  if (!client.ok) return client;
  const token = req.params.get("token");
  if (!token) return fail("invalid_request", "Invalid request: token is required");
  return revokeToken(deps, client.value, token);
}

/**
 * Token revocation (RFC 7009), by the authenticated client the token was issued to: an access
 * token ends; a refresh token ends its whole grant. An unknown token, or another client's, is
 * answered the same `ok` with nothing changed (§2.2: the answer reveals nothing about the token).
 * The prefix tells the kinds apart, so `token_type_hint` is not needed.
 */
export async function revokeToken(deps: RevokeDeps, client: OAuthClient, raw: string): Promise<Result<void>> {
  const at = deps.clock.now().toISOString();
  const hash = hashSecret(raw);
  if (isAccessTokenFormat(raw)) {
    const found = await deps.stores.oauthTokens.findAccess(hash);
    if (found && found.grant.client_id === client.client_id) await deps.stores.oauthTokens.revokeAccess(hash, at);
  } else if (isRefreshTokenFormat(raw)) {
    const found = await deps.stores.oauthTokens.findRefresh(hash);
    if (found && found.grant.client_id === client.client_id) {
      await deps.stores.oauthGrants.revoke(found.grant.workspace_id, found.grant.id, at);
      if (found.grant.revoked_at === null) await emitGrantEvent(deps, "oauth.grant.revoked", found.grant, null);
    }
  }
  return ok(undefined);
}
