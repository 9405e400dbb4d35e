import type { IdentityStores } from "../../../core/identity/ports.ts";
import { dropWorkspaceRows, type MemoryBundle } from "../bundle.ts";
import { MemoryIdentityLinkStore } from "./identity-link-store.ts";
import { MemoryOAuthClientStore } from "./oauth-client-store.ts";
import { MemoryOAuthCodeStore } from "./oauth-code-store.ts";
import { MemoryOAuthGrantStore } from "./oauth-grant-store.ts";
import { MemoryOAuthTokenStore } from "./oauth-token-store.ts";
import { MemorySessionStore } from "./session-store.ts";
import type { IdentityTables } from "./tables.ts";
import { memoryIdentityTransfer } from "./transfer.ts";

/** Codes, grants and tokens are a workspace's; clients, sessions and links are global (a person's, or no one's). */
export function memoryIdentityBundle(t: IdentityTables): MemoryBundle<IdentityStores> {
  return {
    transfer: memoryIdentityTransfer(t),
    stores: {
      oauthClients: new MemoryOAuthClientStore(t),
      oauthCodes: new MemoryOAuthCodeStore(t),
      oauthGrants: new MemoryOAuthGrantStore(t),
      oauthTokens: new MemoryOAuthTokenStore(t),
      sessions: new MemorySessionStore(t),
      identityLinks: new MemoryIdentityLinkStore(t),
    },
    purgeWorkspace: (id) => dropWorkspaceRows(id, t.oauthCodes, t.oauthGrants, t.oauthTokens),
  };
}
