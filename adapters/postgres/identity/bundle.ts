import type { IdentityStores } from "../../../core/identity/ports.ts";
import type { SqlBundle } from "../bundle.ts";
import type { SqlDriver } from "../driver.ts";
import { PostgresIdentityLinkStore } from "./identity-link-store.ts";
import { PostgresOAuthClientStore } from "./oauth-client-store.ts";
import { PostgresOAuthCodeStore } from "./oauth-code-store.ts";
import { PostgresOAuthGrantStore } from "./oauth-grant-store.ts";
import { PostgresOAuthTokenStore } from "./oauth-token-store.ts";
import { PostgresSessionStore } from "./session-store.ts";
import { sqlIdentityTransfer } from "./transfer.ts";

export function sqlIdentityBundle(driver: SqlDriver): SqlBundle<IdentityStores> {
  return {
    transfer: sqlIdentityTransfer(driver),
    stores: {
      oauthClients: new PostgresOAuthClientStore(driver),
      oauthCodes: new PostgresOAuthCodeStore(driver),
      oauthGrants: new PostgresOAuthGrantStore(driver),
      oauthTokens: new PostgresOAuthTokenStore(driver),
      sessions: new PostgresSessionStore(driver),
      identityLinks: new PostgresIdentityLinkStore(driver),
    },
  };
}
