import type { OAuthGrant } from "../../../core/identity/model.ts";
import type { GrantPage, OAuthGrantStore } from "../../../core/identity/ports.ts";
import { isDuplicateKey } from "../duplicate-key.ts";
import type { IdentityCollections } from "./collections.ts";
import { fromGrantDoc, type GrantDoc, grantDoc } from "./documents.ts";

/**
 * A grant document is updated by revocation only (`revoked_at`, one way); its last use is a
 * document of its own, so a touch racing a revocation cannot write the revocation away.
 */
export class MongoOAuthGrantStore implements OAuthGrantStore {
  constructor(private readonly c: IdentityCollections) {}

  async insert(grant: OAuthGrant): Promise<void> {
    try {
      await this.c.oauthGrants.insertOne(grantDoc(grant));
    } catch (e) {
      if (!isDuplicateKey(e)) throw e;
      return;
    }
    if (grant.last_used_at !== null) await this.touch(grant.workspace_id, grant.id, grant.last_used_at);
  }

  async get(workspaceId: string, grantId: string): Promise<OAuthGrant | null> {
    const [doc, use] = await Promise.all([
      this.c.oauthGrants.findOne({ _id: grantId, workspace_id: workspaceId }),
      this.c.oauthGrantUses.findOne({ _id: grantId }),
    ]);
    return doc ? fromGrantDoc(doc, use) : null;
  }

  /** Grant documents with their last use: one `$in` read for any number of them. */
  async withUses(docs: GrantDoc[]): Promise<OAuthGrant[]> {
    if (docs.length === 0) return [];
    const uses = await this.c.oauthGrantUses.find({ _id: { $in: docs.map((d) => d._id) } }).toArray();
    const byId = new Map(uses.map((u) => [u._id, u]));
    return docs.map((d) => fromGrantDoc(d, byId.get(d._id)));
  }

  async list(workspaceId: string, identityId: string | null, page: GrantPage): Promise<OAuthGrant[]> {
    const limit = Math.max(0, Math.trunc(page.limit));
    if (limit === 0) return [];
    const filter: Record<string, unknown> = { workspace_id: workspaceId, revoked_at: null };
    if (identityId !== null) filter.identity_id = identityId;
    if (page.before !== undefined) filter._id = { $lt: page.before };
    const docs = await this.c.oauthGrants.find(filter).sort({ _id: -1 }).limit(limit).toArray();
    return this.withUses(docs);
  }

  async revoke(workspaceId: string, grantId: string, at: string): Promise<boolean> {
    const r = await this.c.oauthGrants.updateOne({ _id: grantId, workspace_id: workspaceId, revoked_at: null }, {
      $set: { revoked_at: at },
    });
    return r.modifiedCount === 1;
  }

  async revokeAllOfIdentity(identityId: string, at: string): Promise<void> {
    await this.c.oauthGrants.updateMany({ identity_id: identityId, revoked_at: null }, { $set: { revoked_at: at } });
  }

  async touch(workspaceId: string, grantId: string, at: string): Promise<void> {
    await this.c.oauthGrantUses.updateOne({ _id: grantId }, { $set: { workspace_id: workspaceId, last_used_at: at } }, { upsert: true });
  }
}
