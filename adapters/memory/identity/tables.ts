import type { IdentityLink, OAuthClient, OAuthGrant, OAuthToken, Session, StoredCode } from "../../../core/identity/model.ts";

/** A stored token: a refresh token's rotation is recorded beside it. */
export type TokenRow = OAuthToken & { rotated_at: string | null };

/** The in-memory tables of identity (the adapter's composition shares one object of every module's tables). */
export class IdentityTables {
  /** client_id → client */
  oauthClients = new Map<string, OAuthClient>();
  /** code_hash → code */
  oauthCodes = new Map<string, StoredCode>();
  /** grant id → grant (ids are unique across workspaces) */
  oauthGrants = new Map<string, OAuthGrant>();
  /** token_hash → token */
  oauthTokens = new Map<string, TokenRow>();
  /** session id → session */
  sessions = new Map<string, Session>();
  /** `${issuer} ${subject}` → link */
  identityLinks = new Map<string, IdentityLink>();
}
