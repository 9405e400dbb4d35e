import type { IdentityStores } from "../../../core/identity/ports.ts";
import { deleteWorkspaceDocs, type MongoBundle } from "../bundle.ts";
import type { IdentityCollections } from "./collections.ts";
import { MongoIdentityLinkStore } from "./identity-link-store.ts";
import { MongoOAuthClientStore } from "./oauth-client-store.ts";
import { MongoOAuthCodeStore } from "./oauth-code-store.ts";
import { MongoOAuthGrantStore } from "./oauth-grant-store.ts";
import { MongoOAuthTokenStore } from "./oauth-token-store.ts";
import { MongoSessionStore } from "./session-store.ts";
import { mongoIdentityTransfer } from "./transfer.ts";

/** Codes, claims, grants, their uses and tokens are a workspace's; clients, sessions and links are global. */
export function mongoIdentityBundle(c: IdentityCollections): MongoBundle<IdentityStores> {
  const grants = new MongoOAuthGrantStore(c);
  return {
    transfer: mongoIdentityTransfer(c),
    stores: {
      oauthClients: new MongoOAuthClientStore(c),
      oauthCodes: new MongoOAuthCodeStore(c),
      oauthGrants: grants,
      oauthTokens: new MongoOAuthTokenStore(c, grants),
      sessions: new MongoSessionStore(c),
      identityLinks: new MongoIdentityLinkStore(c),
    },
    purgeWorkspace: (id) => deleteWorkspaceDocs(id, c.oauthTokens, c.oauthGrants, c.oauthGrantUses, c.oauthClaims, c.oauthCodes),
  };
}
