import type { IdentityLink, OAuthClient, OAuthGrant, Session, StoredCode } from "../../../core/identity/model.ts";
import { IDENTITY_KINDS, type OAuthTokenDoc } from "../../../core/identity/transfer.ts";
import type { TransferKind } from "../../../core/kernel/store-transfer.ts";
import { insertMissing, mongoKind } from "../transfer-kind.ts";
import { claimsAt } from "./claims.ts";
import type { IdentityCollections } from "./collections.ts";
import {
  type ClaimDoc,
  claimId,
  clientDoc,
  type CodeDoc,
  fromClientDoc,
  fromGrantDoc,
  fromLinkDoc,
  fromTokenDoc,
  grantDoc,
  linkId,
  tokenDoc,
} from "./documents.ts";

/**
 * Identity's kinds over its collections: a code's spend and reuse and a refresh token's rotation
 * (claims, `oauth_claims`) and a grant's last use (`oauth_grant_uses`) ride on their document, and
 * are written back as the same claims and uses.
 */
export function mongoIdentityTransfer(c: IdentityCollections): TransferKind[] {
  const K = IDENTITY_KINDS;
  const claims = (docs: ClaimDoc[]) => insertMissing(c.oauthClaims, docs);
  return [
    mongoKind({
      spec: K.oauthClients,
      collection: c.oauthClients,
      keyFields: ["_id"],
      toDocs: async (page) => page.map(fromClientDoc),
      write: async (docs: OAuthClient[]) => (await insertMissing(c.oauthClients, docs.map(clientDoc))).length,
    }),
    mongoKind({
      spec: K.oauthGrants,
      collection: c.oauthGrants,
      keyFields: ["_id"],
      toDocs: async (page) => {
        const uses = new Map((await c.oauthGrantUses.find({ _id: { $in: page.map((d) => d._id) } }).toArray()).map((u) => [u._id, u]));
        return page.map((d) => fromGrantDoc(d, uses.get(d._id)));
      },
      write: async (docs: OAuthGrant[]) => {
        const added = new Set((await insertMissing(c.oauthGrants, docs.map(grantDoc))).map((d) => d._id));
        const uses = docs.filter((g) => added.has(g.id) && g.last_used_at !== null);
        await insertMissing(
          c.oauthGrantUses,
          uses.map((g) => ({ _id: g.id, workspace_id: g.workspace_id, last_used_at: g.last_used_at! })),
        );
        return added.size;
      },
    }),
    mongoKind({
      spec: K.oauthCodes,
      collection: c.oauthCodes,
      keyFields: ["_id"],
      toDocs: async (page) => {
        const at = await claimsAt(c, page.flatMap((d) => [claimId.spent(d._id), claimId.reused(d._id)]));
        return page.map((d): StoredCode => {
          const { _id, ...rest } = d;
          return { code_hash: _id, ...rest, spent_at: at.get(claimId.spent(_id)) ?? null, reused_at: at.get(claimId.reused(_id)) ?? null };
        });
      },
      write: async (docs: StoredCode[]) => {
        const added = await insertMissing(
          c.oauthCodes,
          docs.map(({ code_hash, spent_at: _s, reused_at: _r, ...rest }): CodeDoc => ({ _id: code_hash, ...rest })),
        );
        const ids = new Set(added.map((d) => d._id));
        await claims(
          docs.filter((d) => ids.has(d.code_hash)).flatMap((d) => [
            ...(d.spent_at ? [{ _id: claimId.spent(d.code_hash), workspace_id: d.workspace_id, at: d.spent_at }] : []),
            ...(d.reused_at ? [{ _id: claimId.reused(d.code_hash), workspace_id: d.workspace_id, at: d.reused_at }] : []),
          ]),
        );
        return added.length;
      },
    }),
    mongoKind({
      spec: K.oauthTokens,
      collection: c.oauthTokens,
      keyFields: ["_id"],
      toDocs: async (page) => {
        const at = await claimsAt(c, page.filter((d) => d.kind === "refresh").map((d) => claimId.rotated(d._id)));
        return page.map((d): OAuthTokenDoc => ({ ...fromTokenDoc(d), rotated_at: at.get(claimId.rotated(d._id)) ?? null }));
      },
      write: async (docs: OAuthTokenDoc[]) => {
        const added = new Set((await insertMissing(c.oauthTokens, docs.map(({ rotated_at: _, ...t }) => tokenDoc(t)))).map((d) => d._id));
        await claims(
          docs.filter((d) => added.has(d.token_hash) && d.rotated_at !== null).map((d) => ({
            _id: claimId.rotated(d.token_hash),
            workspace_id: d.workspace_id,
            at: d.rotated_at!,
          })),
        );
        return added.size;
      },
    }),
    mongoKind({
      spec: K.sessions,
      collection: c.authSessions,
      keyFields: ["_id"],
      toDocs: async (page) =>
        page.map((d): Session => ({ id: d._id, identity_id: d.identity_id, created_at: d.created_at, expires_at: d.expires_at })),
      write: async (docs: Session[]) => (await insertMissing(c.authSessions, docs.map(({ id, ...rest }) => ({ _id: id, ...rest })))).length,
    }),
    mongoKind({
      spec: K.identityLinks,
      collection: c.identityLinks,
      // `_id` is the JSON of [issuer, subject], whose order is not the pair's: sorted on the fields (index `issuer_subject`).
      keyFields: ["issuer", "subject"],
      toDocs: async (page) => page.map(fromLinkDoc),
      write: async (docs: IdentityLink[]) =>
        (await insertMissing(c.identityLinks, docs.map((l) => ({ _id: linkId(l.issuer, l.subject), ...l })))).length,
    }),
  ];
}
