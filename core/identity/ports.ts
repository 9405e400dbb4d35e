import type { CoreDeps } from "../kernel/deps.ts";
import type { Result } from "./errors.ts";
import type { OidcClaims } from "./identity-links.ts";
import type { WorkspaceStores } from "../workspaces/mod.ts";
import type {
  AuthorizationCode,
  IdentityLink,
  OAuthClient,
  OAuthGrant,
  OAuthToken,
  Session,
  StoredCode,
  StoredRefreshToken,
} from "./model.ts";

/**
 * Store ports of identity, in the style of Lucia v3's adapter: small, named for the domain; absence
 * is `null`, `false` or `[]`, never a throw; an expected refusal is a returned string. Each method
 * is atomic on its own under any concurrency, on every adapter (MongoDB without transactions:
 * docs/decisions/028-identity-store.md). Token, code and session lookups go by hash through a
 * unique index; a grant's tokens are valid only while the grant is (one write revokes them all).
 */

/** The one registry of OAuth clients (global: a client is no workspace's). */
export interface OAuthClientStore {
  insert(client: OAuthClient): Promise<"ok" | "taken">;
  get(clientId: string): Promise<OAuthClient | null>;
  /** The clients of these ids that exist (for a page of grants: at most its length). */
  getMany(clientIds: string[]): Promise<OAuthClient[]>;
}

/** A redemption attempt of a code: the code, and whether this attempt was the first. */
export interface CodeSpend {
  code: StoredCode;
  first: boolean;
}

export interface OAuthCodeStore {
  insert(code: AuthorizationCode): Promise<void>;
  /**
   * A redemption attempt: spends the code. Of any number of attempts, concurrent or not, exactly
   * one is `first`; every later one marks the code reused (`reused_at`) before it returns. Null
   * for an unknown code. Expiry is the caller's to judge (the code comes back either way).
   */
  spend(codeHash: string, at: string): Promise<CodeSpend | null>;
  get(codeHash: string): Promise<StoredCode | null>;
}

/** A keyset page of grants, newest first: those with an id below `before` when given. */
export interface GrantPage {
  limit: number;
  before?: string;
}

export interface OAuthGrantStore {
  insert(grant: OAuthGrant): Promise<void>;
  get(workspaceId: string, grantId: string): Promise<OAuthGrant | null>;
  /** The workspace's unrevoked grants (of one person when `identityId` is given), newest first, at most `page.limit`. */
  list(workspaceId: string, identityId: string | null, page: GrantPage): Promise<OAuthGrant[]>;
  /** Revokes the grant, and so every token of it, at once. False when it is unknown or was revoked already. */
  revoke(workspaceId: string, grantId: string, at: string): Promise<boolean>;
  /** Revokes every grant of a person, in every workspace (a deactivated identity). */
  revokeAllOfIdentity(identityId: string, at: string): Promise<void>;
  /** Records a use (`last_used_at`); last writer wins. */
  touch(workspaceId: string, grantId: string, at: string): Promise<void>;
}

/** A token found by its hash, with its grant as it is now. */
export interface TokenLookup<T extends OAuthToken = OAuthToken> {
  token: T;
  grant: OAuthGrant;
}

export interface OAuthTokenStore {
  /** Stores tokens issued together (an access token, and a refresh token when the client has that grant). */
  insert(tokens: OAuthToken[]): Promise<void>;
  findAccess(tokenHash: string): Promise<TokenLookup | null>;
  findRefresh(tokenHash: string): Promise<TokenLookup<StoredRefreshToken> | null>;
  /**
   * Exchanges a refresh token for `next` (its successors): marks it rotated and stores them. Of
   * concurrent rotations of one token exactly one is `rotated`; a token rotated before is
   * `replayed` (nothing stored); an unknown one `not_found`.
   */
  rotateRefresh(tokenHash: string, next: OAuthToken[], at: string): Promise<"rotated" | "replayed" | "not_found">;
  /** Ends one access token. False when unknown or revoked already. */
  revokeAccess(tokenHash: string, at: string): Promise<boolean>;
}

/** Dashboard sessions (global: a session is a person's, across workspaces). */
export interface SessionStore {
  insert(session: Session): Promise<void>;
  get(sessionId: string): Promise<Session | null>;
  setExpiry(sessionId: string, expiresAt: string): Promise<void>;
  delete(sessionId: string): Promise<void>;
  deleteAllOf(identityId: string): Promise<void>;
}

/** People's accounts at OpenID Connect providers (global). */
export interface IdentityLinkStore {
  get(issuer: string, subject: string): Promise<IdentityLink | null>;
  /** `(issuer, subject)` names one link, and a person has at most one link per issuer: else "taken". */
  insert(link: IdentityLink): Promise<"ok" | "taken">;
  /** Marks the link deactivated (once: a second call keeps the first instant). Null when unknown. */
  deactivate(issuer: string, subject: string, at: string): Promise<IdentityLink | null>;
}

/** What a sign-in keeps between its start and the provider's callback (in a signed cookie). */
export interface OidcSignInState {
  state: string;
  nonce: string;
  code_verifier: string;
}

/**
 * An OpenID Connect provider, as the sign-in uses it (an outside provider behind a port; the real
 * one is adapters/oidc/, on oauth4webapi): the authorization code flow with PKCE, state and nonce.
 */
export interface OidcProvider {
  readonly issuer: string;
  /** A new sign-in: the provider's authorization URL to send the browser to, and what to keep. */
  start(redirectUri: string): Promise<{ url: string; keep: OidcSignInState }>;
  /**
   * The provider's callback: checks `state`, exchanges the code (with the PKCE verifier), checks
   * the ID token (signature against the provider's JWKS, `iss`, `aud`, `exp`, `nonce`) and answers
   * its claims. A refusal (the provider's error, a wrong state, a bad token) is `invalid_grant`.
   * Throws (IDENTITY_PROVIDER_UNAVAILABLE) only when the provider cannot be reached.
   */
  finish(callback: URL, redirectUri: string, kept: OidcSignInState): Promise<Result<OidcClaims>>;
}

/** Identity's stores, one bundle per adapter (adapters/<adapter>/identity/). */
export interface IdentityStores {
  oauthClients: OAuthClientStore;
  oauthCodes: OAuthCodeStore;
  oauthGrants: OAuthGrantStore;
  oauthTokens: OAuthTokenStore;
  sessions: SessionStore;
  identityLinks: IdentityLinkStore;
}

/** What identity's use cases are given: its own stores and the people of workspaces (ADR 019). */
export type IdentityDeps = CoreDeps<IdentityStores & WorkspaceStores>;
