import type { Collection, Db } from "mongodb";
import type { ClaimDoc, ClientDoc, CodeDoc, GrantDoc, GrantUseDoc, LinkDoc, SessionDoc, TokenDoc } from "./documents.ts";

/** Identity's collections of one database (their indexes: indexes.ts). */
export interface IdentityCollections {
  oauthClients: Collection<ClientDoc>;
  oauthCodes: Collection<CodeDoc>;
  oauthClaims: Collection<ClaimDoc>;
  oauthGrants: Collection<GrantDoc>;
  oauthGrantUses: Collection<GrantUseDoc>;
  oauthTokens: Collection<TokenDoc>;
  authSessions: Collection<SessionDoc>;
  identityLinks: Collection<LinkDoc>;
}

export const IDENTITY_COLLECTION_NAMES = {
  oauthClients: "oauth_clients",
  oauthCodes: "oauth_codes",
  oauthClaims: "oauth_claims",
  oauthGrants: "oauth_grants",
  oauthGrantUses: "oauth_grant_uses",
  oauthTokens: "oauth_tokens",
  authSessions: "auth_sessions",
  identityLinks: "identity_links",
} as const;

export function identityCollections(db: Db): IdentityCollections {
  const n = IDENTITY_COLLECTION_NAMES;
  return {
    oauthClients: db.collection<ClientDoc>(n.oauthClients),
    oauthCodes: db.collection<CodeDoc>(n.oauthCodes),
    oauthClaims: db.collection<ClaimDoc>(n.oauthClaims),
    oauthGrants: db.collection<GrantDoc>(n.oauthGrants),
    oauthGrantUses: db.collection<GrantUseDoc>(n.oauthGrantUses),
    oauthTokens: db.collection<TokenDoc>(n.oauthTokens),
    authSessions: db.collection<SessionDoc>(n.authSessions),
    identityLinks: db.collection<LinkDoc>(n.identityLinks),
  };
}
