import type { CoreDeps } from "../kernel/deps.ts";
import type { TokenSet } from "./dto.ts";
import { fail, ok, type Result } from "./errors.ts";
import { isExpired } from "./lifetimes.ts";
import type { OAuthClient, OAuthGrant } from "./model.ts";
import { verifyS256 } from "./pkce.ts";
import type { IdentityStores } from "./ports.ts";
import { emitGrantEvent } from "./grant-events.ts";
import { mintTokens } from "./token-issue.ts";
import { hashSecret, isAuthorizationCodeFormat } from "./token-format.ts";

type RedeemDeps = CoreDeps<Pick<IdentityStores, "oauthCodes" | "oauthGrants" | "oauthTokens">>;

/** A token request of grant type `authorization_code`, its client authenticated already (clients.ts). */
export interface CodeRedemption {
  client: OAuthClient;
  code: string;
  code_verifier: string;
  redirect_uri: string;
  /** The issuer the request came to: a code redeems only where it was issued. */
  issuer: string;
}

const invalidGrant = (why: string) => fail<TokenSet>("invalid_grant", `Invalid authorization code: ${why}`);

/**
 * Exchanges a code for a new grant's tokens. The first attempt spends the code, whatever its
 * outcome (a wrong verifier included); any later attempt is `invalid_grant` and revokes every
 * token issued from the code (its grant). Of two concurrent attempts exactly one can succeed.
 */
export async function redeemCode(deps: RedeemDeps, req: CodeRedemption): Promise<Result<TokenSet>> {
  if (!isAuthorizationCodeFormat(req.code)) return invalidGrant("unknown code");
  const now = deps.clock.now();
  const hash = hashSecret(req.code);
  const spend = await deps.stores.oauthCodes.spend(hash, now.toISOString());
  if (!spend) return invalidGrant("unknown code");
  const code = spend.code;
  if (!spend.first) {
    await deps.stores.oauthGrants.revoke(code.workspace_id, code.grant_id, now.toISOString());
    return invalidGrant("it was used already; the tokens issued from it are revoked");
  }
  if (isExpired(code.expires_at, now)) return invalidGrant("it has expired");
  if (code.client_id !== req.client.client_id) return invalidGrant("it was issued to another client");
  if (code.issuer !== req.issuer) return invalidGrant("it was issued by another issuer");
  if (code.redirect_uri !== req.redirect_uri) return invalidGrant("redirect_uri differs from the authorization request's");
  if (!verifyS256(req.code_verifier, code.code_challenge)) return invalidGrant("code_verifier does not match the code_challenge");

  const grant: OAuthGrant = {
    id: code.grant_id,
    workspace_id: code.workspace_id,
    identity_id: code.identity_id,
    client_id: code.client_id,
    scopes: [...code.scopes],
    issuer: code.issuer,
    created_at: now.toISOString(),
    last_used_at: now.toISOString(),
    revoked_at: null,
  };
  await deps.stores.oauthGrants.insert(grant);
  const minted = mintTokens(req.client, grant, now);
  await deps.stores.oauthTokens.insert(minted.records);
  // A second attempt that came meanwhile marked the code reused, then revoked the grant, perhaps
  // before it existed. The grant was written before this read, so one of the two sees the other.
  if ((await deps.stores.oauthCodes.get(hash))?.reused_at) {
    await deps.stores.oauthGrants.revoke(code.workspace_id, code.grant_id, deps.clock.now().toISOString());
    return invalidGrant("it was used already; the tokens issued from it are revoked");
  }
  await emitGrantEvent(deps, "oauth.grant.created", grant, null);
  return ok(minted.answer);
}
