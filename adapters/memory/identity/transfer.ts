import type { TransferKind } from "../../../core/kernel/store-transfer.ts";
import type { IdentityLink, OAuthClient, OAuthGrant, Session, StoredCode } from "../../../core/identity/model.ts";
import { IDENTITY_KINDS, type OAuthTokenDoc } from "../../../core/identity/transfer.ts";
import { memoryKind } from "../transfer-kind.ts";
import type { IdentityTables } from "./tables.ts";

/** Identity's kinds on the memory adapter: the tables' rows are the documents. */
export function memoryIdentityTransfer(t: IdentityTables): TransferKind[] {
  const K = IDENTITY_KINDS;
  return [
    memoryKind<OAuthClient>({
      spec: K.oauthClients,
      docs: () => [...t.oauthClients.values()],
      has: (d) => t.oauthClients.has(d.client_id),
      put: (d) => void t.oauthClients.set(d.client_id, d),
    }),
    memoryKind<OAuthGrant>({
      spec: K.oauthGrants,
      docs: () => [...t.oauthGrants.values()],
      has: (d) => t.oauthGrants.has(d.id),
      put: (d) => void t.oauthGrants.set(d.id, d),
    }),
    memoryKind<StoredCode>({
      spec: K.oauthCodes,
      docs: () => [...t.oauthCodes.values()],
      has: (d) => t.oauthCodes.has(d.code_hash),
      put: (d) => void t.oauthCodes.set(d.code_hash, d),
    }),
    memoryKind<OAuthTokenDoc>({
      spec: K.oauthTokens,
      docs: () => [...t.oauthTokens.values()],
      has: (d) => t.oauthTokens.has(d.token_hash),
      put: (d) => void t.oauthTokens.set(d.token_hash, d),
    }),
    memoryKind<Session>({
      spec: K.sessions,
      docs: () => [...t.sessions.values()],
      has: (d) => t.sessions.has(d.id),
      put: (d) => void t.sessions.set(d.id, d),
    }),
    memoryKind<IdentityLink>({
      spec: K.identityLinks,
      docs: () => [...t.identityLinks.values()],
      has: (d) => t.identityLinks.has(`${d.issuer} ${d.subject}`),
      put: (d) => void t.identityLinks.set(`${d.issuer} ${d.subject}`, d),
    }),
  ];
}
