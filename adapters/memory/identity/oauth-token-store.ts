import type { OAuthToken, StoredRefreshToken } from "../../../core/identity/model.ts";
import type { OAuthTokenStore, TokenLookup } from "../../../core/identity/ports.ts";
import type { IdentityTables, TokenRow } from "./tables.ts";

/** Each method runs in one turn of the event loop: `rotateRefresh` is a synchronous check-and-set. */
export class MemoryOAuthTokenStore implements OAuthTokenStore {
  constructor(private readonly t: IdentityTables) {}

  async insert(tokens: OAuthToken[]): Promise<void> {
    for (const token of tokens) this.t.oauthTokens.set(token.token_hash, { ...structuredClone(token), rotated_at: null });
  }

  private lookup(tokenHash: string, kind: OAuthToken["kind"]): { row: TokenRow; lookup: TokenLookup<TokenRow> } | null {
    const row = this.t.oauthTokens.get(tokenHash);
    const grant = row && row.kind === kind ? this.t.oauthGrants.get(row.grant_id) : undefined;
    if (!row || !grant) return null;
    return { row, lookup: { token: structuredClone(row), grant: structuredClone(grant) } };
  }

  async findAccess(tokenHash: string): Promise<TokenLookup | null> {
    const found = this.lookup(tokenHash, "access");
    if (!found) return null;
    const { rotated_at: _, ...token } = found.lookup.token;
    return { token, grant: found.lookup.grant };
  }

  async findRefresh(tokenHash: string): Promise<TokenLookup<StoredRefreshToken> | null> {
    return (this.lookup(tokenHash, "refresh")?.lookup ?? null) as TokenLookup<StoredRefreshToken> | null;
  }

  async rotateRefresh(tokenHash: string, next: OAuthToken[], at: string): Promise<"rotated" | "replayed" | "not_found"> {
    const found = this.lookup(tokenHash, "refresh");
    if (!found) return "not_found";
    if (found.row.rotated_at !== null) return "replayed";
    found.row.rotated_at = at;
    await this.insert(next);
    return "rotated";
  }

  async revokeAccess(tokenHash: string, at: string): Promise<boolean> {
    const found = this.lookup(tokenHash, "access");
    if (!found || found.row.revoked_at !== null) return false;
    found.row.revoked_at = at;
    return true;
  }
}
