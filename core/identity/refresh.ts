import type { CoreDeps } from "../kernel/deps.ts";
import type { TokenSet } from "./dto.ts";
import { fail, ok, type Result } from "./errors.ts";
import { isExpired } from "./lifetimes.ts";
import type { OAuthClient } from "./model.ts";
import type { IdentityStores } from "./ports.ts";
import { parseScope } from "./scopes.ts";
import { mintTokens } from "./token-issue.ts";
import { hashSecret, isRefreshTokenFormat } from "./token-format.ts";

type RefreshDeps = CoreDeps<Pick<IdentityStores, "oauthGrants" | "oauthTokens">>;

/** A token request of grant type `refresh_token`, its client authenticated already. */
export interface RefreshRequest {
  client: OAuthClient;
  refresh_token: string;
  /** Optional (RFC 6749 §6): when given, it must name the grant's scopes; tokens carry their grant's. */
  scope?: string | null;
  issuer: string;
}

const invalidGrant = (why: string) => fail<TokenSet>("invalid_grant", `Invalid refresh token: ${why}`);

/**
 * Rotates a refresh token: the presented one is spent, a new access and refresh token answer. A
 * token presented after it was rotated (a replay: the client's copy and another's cannot both be
 * genuine) is `invalid_grant` and revokes its whole grant; of two concurrent refreshes of one
 * token exactly one rotates it, and the other counts as that replay.
 */
export async function refreshTokens(deps: RefreshDeps, req: RefreshRequest): Promise<Result<TokenSet>> {
  if (!isRefreshTokenFormat(req.refresh_token)) return invalidGrant("unknown token");
  const now = deps.clock.now();
  const at = now.toISOString();
  const hash = hashSecret(req.refresh_token);
  const found = await deps.stores.oauthTokens.findRefresh(hash);
  if (!found) return invalidGrant("unknown token");
  const { token, grant } = found;
  if (grant.client_id !== req.client.client_id) return invalidGrant("it was issued to another client");
  if (grant.issuer !== req.issuer) return invalidGrant("it was issued by another issuer");
  const replayed = async () => {
    await deps.stores.oauthGrants.revoke(grant.workspace_id, grant.id, at);
    return invalidGrant("it was used already; its grant is revoked");
  };
  if (token.rotated_at !== null) return replayed();
  if (grant.revoked_at !== null) return invalidGrant("its grant is revoked");
  if (isExpired(token.expires_at, now)) return invalidGrant("it has expired");
  if (req.scope) {
    const asked = parseScope(req.scope);
    if (!asked.ok || asked.scopes.some((s) => !grant.scopes.includes(s)) || asked.scopes.length !== grant.scopes.length) {
      return fail("invalid_scope", "Invalid scope: a refresh keeps its grant's scopes; omit scope or name them all");
    }
  }
  const minted = mintTokens(req.client, grant, now);
  const outcome = await deps.stores.oauthTokens.rotateRefresh(hash, minted.records, at);
  if (outcome === "replayed") return replayed();
  if (outcome === "not_found") return invalidGrant("unknown token");
  await deps.stores.oauthGrants.touch(grant.workspace_id, grant.id, at);
  return ok(minted.answer);
}
