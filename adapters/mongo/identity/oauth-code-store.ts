import type { AuthorizationCode, StoredCode } from "../../../core/identity/model.ts";
import type { CodeSpend, OAuthCodeStore } from "../../../core/identity/ports.ts";
import { claim, claimsAt } from "./claims.ts";
import type { IdentityCollections } from "./collections.ts";
import { claimId, type CodeDoc } from "./documents.ts";

/**
 * A code document is written once. Spending it is inserting the claim `code:<hash>`: of concurrent
 * attempts exactly one insert wins (the unique `_id`). A losing attempt inserts `code-reused:<hash>`
 * (the first such insert keeps its instant) before it answers, as the port requires.
 */
export class MongoOAuthCodeStore implements OAuthCodeStore {
  constructor(private readonly c: IdentityCollections) {}

  async insert(code: AuthorizationCode): Promise<void> {
    const { code_hash, ...rest } = code;
    await this.c.oauthCodes.insertOne({ _id: code_hash, ...rest, scopes: [...code.scopes] });
  }

  async spend(codeHash: string, at: string): Promise<CodeSpend | null> {
    const doc = await this.c.oauthCodes.findOne({ _id: codeHash });
    if (!doc) return null;
    if (await claim(this.c, claimId.spent(codeHash), doc.workspace_id, at)) {
      return { code: stored(doc, at, null), first: true };
    }
    await claim(this.c, claimId.reused(codeHash), doc.workspace_id, at);
    return { code: await this.withClaims(doc), first: false };
  }

  async get(codeHash: string): Promise<StoredCode | null> {
    const doc = await this.c.oauthCodes.findOne({ _id: codeHash });
    return doc ? this.withClaims(doc) : null;
  }

  private async withClaims(doc: CodeDoc): Promise<StoredCode> {
    const at = await claimsAt(this.c, [claimId.spent(doc._id), claimId.reused(doc._id)]);
    return stored(doc, at.get(claimId.spent(doc._id)) ?? null, at.get(claimId.reused(doc._id)) ?? null);
  }
}

function stored(d: CodeDoc, spentAt: string | null, reusedAt: string | null): StoredCode {
  return {
    code_hash: d._id,
    workspace_id: d.workspace_id,
    grant_id: d.grant_id,
    client_id: d.client_id,
    identity_id: d.identity_id,
    issuer: d.issuer,
    redirect_uri: d.redirect_uri,
    scopes: d.scopes,
    code_challenge: d.code_challenge,
    created_at: d.created_at,
    expires_at: d.expires_at,
    spent_at: spentAt,
    reused_at: reusedAt,
  };
}
