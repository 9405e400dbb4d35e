import type { TokenSet } from "./dto.ts";
import { accessTokenExpiry, refreshTokenExpiry, secondsLeft } from "./lifetimes.ts";
import type { OAuthClient, OAuthGrant, OAuthToken } from "./model.ts";
import { formatScope } from "./scopes.ts";
import { hashSecret, newAccessToken, newRefreshToken } from "./token-format.ts";

/** Tokens minted for a grant: the answer to send (raw tokens) and the records to store (hashes). */
export interface MintedTokens {
  answer: TokenSet;
  records: OAuthToken[];
}

/**
 * An access token (1 hour) and, when the client registered the `refresh_token` grant, a refresh
 * token (30 days, at most 90 from the grant's creation), for `grant`.
 */
export function mintTokens(client: OAuthClient, grant: OAuthGrant, now: Date): MintedTokens {
  const at = now.toISOString();
  const access = newAccessToken();
  const accessRecord: OAuthToken = {
    token_hash: hashSecret(access),
    kind: "access",
    workspace_id: grant.workspace_id,
    grant_id: grant.id,
    created_at: at,
    expires_at: accessTokenExpiry(now),
    revoked_at: null,
  };
  const answer: TokenSet = {
    access_token: access,
    token_type: "Bearer",
    expires_in: secondsLeft(accessRecord.expires_at, now),
    scope: formatScope(grant.scopes),
  };
  if (!client.grant_types.includes("refresh_token")) return { answer, records: [accessRecord] };
  const refresh = newRefreshToken();
  const refreshRecord: OAuthToken = {
    ...accessRecord,
    token_hash: hashSecret(refresh),
    kind: "refresh",
    expires_at: refreshTokenExpiry(now, grant.created_at),
  };
  return { answer: { ...answer, refresh_token: refresh }, records: [accessRecord, refreshRecord] };
}
