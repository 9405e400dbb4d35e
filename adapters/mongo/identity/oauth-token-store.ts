import type { OAuthToken, StoredRefreshToken } from "../../../core/identity/model.ts";
import type { OAuthTokenStore, TokenLookup } from "../../../core/identity/ports.ts";
import { claim, claimsAt } from "./claims.ts";
import type { IdentityCollections } from "./collections.ts";
import { claimId, fromTokenDoc, tokenDoc } from "./documents.ts";
import type { MongoOAuthGrantStore } from "./oauth-grant-store.ts";

/**
 * Tokens by `_id` (their hash), then their grant by `_id`: two round trips. Rotating a refresh
 * token is inserting the claim `refresh:<hash>`: of concurrent rotations one insert wins, and only
 * it stores the successors. A crash between the two leaves the token rotated without successors:
 * the client's next refresh is a replay and revokes the grant (it fails safe: sign in again).
 */
export class MongoOAuthTokenStore implements OAuthTokenStore {
  constructor(private readonly c: IdentityCollections, private readonly grants: MongoOAuthGrantStore) {}

  async insert(tokens: OAuthToken[]): Promise<void> {
    if (tokens.length > 0) await this.c.oauthTokens.insertMany(tokens.map(tokenDoc));
  }

  private async find(tokenHash: string, kind: OAuthToken["kind"]): Promise<TokenLookup | null> {
    const doc = await this.c.oauthTokens.findOne({ _id: tokenHash, kind });
    if (!doc) return null;
    const grant = await this.grants.get(doc.workspace_id, doc.grant_id);
    return grant ? { token: fromTokenDoc(doc), grant } : null;
  }

  findAccess(tokenHash: string): Promise<TokenLookup | null> {
    return this.find(tokenHash, "access");
  }

  async findRefresh(tokenHash: string): Promise<TokenLookup<StoredRefreshToken> | null> {
    const [found, claims] = await Promise.all([this.find(tokenHash, "refresh"), claimsAt(this.c, [claimId.rotated(tokenHash)])]);
    if (!found) return null;
    return { token: { ...found.token, kind: "refresh", rotated_at: claims.get(claimId.rotated(tokenHash)) ?? null }, grant: found.grant };
  }

  async rotateRefresh(tokenHash: string, next: OAuthToken[], at: string): Promise<"rotated" | "replayed" | "not_found"> {
    const doc = await this.c.oauthTokens.findOne({ _id: tokenHash, kind: "refresh" });
    if (!doc) return "not_found";
    if (!(await claim(this.c, claimId.rotated(tokenHash), doc.workspace_id, at))) return "replayed";
    await this.insert(next);
    return "rotated";
  }

  async revokeAccess(tokenHash: string, at: string): Promise<boolean> {
    const r = await this.c.oauthTokens.updateOne({ _id: tokenHash, kind: "access", revoked_at: null }, { $set: { revoked_at: at } });
    return r.modifiedCount === 1;
  }
}
