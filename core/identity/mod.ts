/**
 * Identity: OAuth 2.1 clients, codes, grants and opaque tokens; dashboard sessions; links of
 * people to an OpenID Connect provider. Failures are values (`Result`, errors.ts). Public surface
 * of the module (docs/decisions/028-identity-store.md).
 */
export * from "./model.ts";
export * from "./dto.ts";
export * from "./ports.ts";
export * from "./policy.ts";
export * from "./errors.ts";
export * from "./scopes.ts";
export * from "./redirect-uri.ts";
export * from "./pkce.ts";
export * from "./lifetimes.ts";
export * from "./token-format.ts";
export { type ClientMetadata, readClientMetadata } from "./client-metadata.ts";
export { type ClientCredentials, readClientCredentials } from "./client-credentials.ts";
export { authenticateClient, clientInfoOf, clientInformation, registerClient } from "./clients.ts";
export { type CodeRequest, issueCode, type IssuedCode } from "./codes.ts";
export { type CodeRedemption, redeemCode } from "./redeem-code.ts";
export { type RefreshRequest, refreshTokens } from "./refresh.ts";
export { exchangeToken, type GrantRequest, readGrantRequest, type TokenExchange, type TokenParams } from "./token-exchange.ts";
export { revokeClientToken, revokeToken } from "./revoke-token.ts";
export { type AccessTokenAuth, authenticateAccessToken, GRANT_TOUCH_INTERVAL_MS } from "./authenticate-token.ts";
export { authenticateOAuthToken, SESSION_SCOPES, sessionPrincipal, sessionPrincipalOf } from "./principal.ts";
export {
  approveAuthorization,
  type AuthorizationCheck,
  type AuthorizationParams,
  type AuthorizationRefusal,
  type AuthorizationRequest,
  authorizationResponseUri,
  checkAuthorizationRequest,
} from "./authorize.ts";
export { emitGrantEvent } from "./grant-events.ts";
export { type OAuthMount, oauthMount } from "./mounts.ts";
export { type ConsentDecider, consentDecider, type ConsentDecision, type ConsentViewer, consentViewer, decideConsent } from "./consent.ts";
export { createSession, invalidateSession, invalidateSessionsOf, sessionIdOf, validateSession } from "./sessions.ts";
export { type GrantList, type GrantQuery, grantView, listGrants, revokeGrant } from "./grants.ts";
export { deactivateIdentity, type OidcClaims, resolveOidcIdentity } from "./identity-links.ts";
export {
  IDENTITY_EVENT_TYPES,
  IDENTITY_WEBHOOK_SOURCE,
  type IdentityDelivery,
  IdentityWebhookResult,
  receiveIdentityWebhook,
} from "./identity-webhook.ts";
