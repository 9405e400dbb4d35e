import type { OAuthGrant } from "../../../core/identity/model.ts";
import type { GrantPage, OAuthGrantStore } from "../../../core/identity/ports.ts";
import type { IdentityTables } from "./tables.ts";

export class MemoryOAuthGrantStore implements OAuthGrantStore {
  constructor(private readonly t: IdentityTables) {}

  async insert(grant: OAuthGrant): Promise<void> {
    if (!this.t.oauthGrants.has(grant.id)) this.t.oauthGrants.set(grant.id, structuredClone(grant));
  }

  private find(workspaceId: string, grantId: string): OAuthGrant | null {
    const g = this.t.oauthGrants.get(grantId);
    return g && g.workspace_id === workspaceId ? g : null;
  }

  async get(workspaceId: string, grantId: string): Promise<OAuthGrant | null> {
    const g = this.find(workspaceId, grantId);
    return g ? structuredClone(g) : null;
  }

  async list(workspaceId: string, identityId: string | null, page: GrantPage): Promise<OAuthGrant[]> {
    return [...this.t.oauthGrants.values()]
      .filter((g) =>
        g.workspace_id === workspaceId && g.revoked_at === null && (identityId === null || g.identity_id === identityId) &&
        (page.before === undefined || g.id < page.before)
      )
      .sort((a, b) => (a.id < b.id ? 1 : -1))
      .slice(0, Math.max(0, page.limit))
      .map((g) => structuredClone(g));
  }

  async revoke(workspaceId: string, grantId: string, at: string): Promise<boolean> {
    const g = this.find(workspaceId, grantId);
    if (!g || g.revoked_at !== null) return false;
    g.revoked_at = at;
    return true;
  }

  async revokeAllOfIdentity(identityId: string, at: string): Promise<void> {
    for (const g of this.t.oauthGrants.values()) if (g.identity_id === identityId && g.revoked_at === null) g.revoked_at = at;
  }

  async touch(workspaceId: string, grantId: string, at: string): Promise<void> {
    const g = this.find(workspaceId, grantId);
    if (g) g.last_used_at = at;
  }
}
