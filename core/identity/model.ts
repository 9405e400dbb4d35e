/**
 * What the identity module keeps: OAuth 2.1 clients, authorization codes, grants and their tokens,
 * dashboard sessions, and the links of people to an OpenID Connect provider. A person is the
 * workspaces module's `Identity` (`identity_id` everywhere here); this module adds no second notion
 * of a person. Secrets and tokens are never stored: only their SHA-256 (hex), as `*_hash` or, for a
 * session, as its id. What crosses the API is in dto.ts.
 */

/** OAuth scopes (scopes.ts holds their rules). `work:read` is always granted. */
import { type Scope, SCOPES } from "../access/mod.ts";
export { type Scope, SCOPES };

/** How a client authenticates at the token endpoint (RFC 7591 §2): `none` is a public client. */
export const CLIENT_AUTH_METHODS = ["none", "client_secret_basic", "client_secret_post"] as const;
export type ClientAuthMethod = (typeof CLIENT_AUTH_METHODS)[number];

export const GRANT_TYPES = ["authorization_code", "refresh_token"] as const;
export type GrantType = (typeof GRANT_TYPES)[number];

export const RESPONSE_TYPES = ["code"] as const;
export type ResponseType = (typeof RESPONSE_TYPES)[number];

/** A registered client (RFC 7591). One registry serves every issuer (the root and each workspace mount). */
export interface OAuthClient {
  client_id: string;
  client_name: string | null;
  redirect_uris: string[];
  client_uri: string | null;
  logo_uri: string | null;
  token_endpoint_auth_method: ClientAuthMethod;
  grant_types: GrantType[];
  response_types: ResponseType[];
  /** The scope used when an authorization request names none (space-separated); it caps nothing. */
  scope: string | null;
  /** SHA-256 hex of the client secret; null for a public client. */
  secret_hash: string | null;
  created_at: string;
}

/**
 * An authorization code, issued at consent and redeemed once at the token endpoint. `grant_id` is
 * chosen at issue, so the grant its redemption creates is known before it exists: a second
 * redemption attempt can revoke it, whichever of the two ran first (tokens.ts).
 */
export interface AuthorizationCode {
  code_hash: string;
  workspace_id: string;
  grant_id: string;
  client_id: string;
  identity_id: string;
  /** The issuer that issued it (the root or a workspace mount): it redeems only there. */
  issuer: string;
  redirect_uri: string;
  scopes: Scope[];
  /** BASE64URL(SHA-256(code_verifier)), PKCE S256 (RFC 7636). */
  code_challenge: string;
  created_at: string;
  expires_at: string;
}

/** A code as the store knows it: whether its one redemption attempt happened, and whether another came after. */
export interface StoredCode extends AuthorizationCode {
  spent_at: string | null;
  /** Set by a redemption attempt after the first: every token issued from the code is revoked. */
  reused_at: string | null;
}

/** What a person allowed a client in one workspace, at one issuer: a family of tokens, revoked as one. */
export interface OAuthGrant {
  id: string;
  workspace_id: string;
  identity_id: string;
  client_id: string;
  scopes: Scope[];
  issuer: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export const TOKEN_KINDS = ["access", "refresh"] as const;
export type TokenKind = (typeof TOKEN_KINDS)[number];

/** An access or refresh token, stored by its hash. It is valid while unexpired, unrevoked, and its grant unrevoked. */
export interface OAuthToken {
  token_hash: string;
  kind: TokenKind;
  workspace_id: string;
  grant_id: string;
  created_at: string;
  expires_at: string;
  /** An access token revoked on its own (RFC 7009); refresh tokens end with their grant. */
  revoked_at: string | null;
}

/** A refresh token as the store knows it: `rotated_at` once it was exchanged (then any later use is a replay). */
export interface StoredRefreshToken extends OAuthToken {
  kind: "refresh";
  rotated_at: string | null;
}

/** A dashboard session (lucia-auth.com's sessions guide): `id` is the SHA-256 hex of the token in the cookie. */
export interface Session {
  id: string;
  identity_id: string;
  created_at: string;
  expires_at: string;
}

/**
 * A person's account at an OpenID Connect provider: `(issuer, subject)` names it for good (an
 * e-mail may change). `email` is the provider's at linking time. A deactivated link signs in no more.
 */
export interface IdentityLink {
  issuer: string;
  subject: string;
  identity_id: string;
  email: string;
  created_at: string;
  deactivated_at: string | null;
}
