import * as oauth from "oauth4webapi";
import { fail, ok, type Result } from "../../core/identity/errors.ts";
import { AppError } from "../../core/kernel/errors.ts";
import type { OidcClaims } from "../../core/identity/identity-links.ts";
import type { OidcProvider, OidcSignInState } from "../../core/identity/ports.ts";

/**
 * The OpenID Connect relying party on `oauth4webapi` (panva's, exact-pinned): discovery, the
 * authorization code flow with PKCE (S256), state and nonce, the code exchange with the client
 * secret (`client_secret_basic`), and the ID token's checks (`iss`, `aud`, `exp`, `iat`, `nonce`
 * by `processAuthorizationCodeResponse`, the signature against the provider's JWKS by
 * `validateApplicationLevelSignature`); the e-mail from UserInfo when the ID token lacks it. No
 * JOSE of our own.
 *
 * Discovery happens on first use and is cached (a failure is retried by the next sign-in), so the
 * server starts without reaching the provider. An `http:` issuer is accepted on a loopback host
 * only (a provider on the same machine, as in the tests).
 */
export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Scopes asked for; `openid email profile` by default. */
  scope?: string;
}

/** The provider could not be reached or answered nonsense: 502 `IDENTITY_PROVIDER_UNAVAILABLE`. */
const unavailable = (message: string) => new AppError("IDENTITY_PROVIDER_UNAVAILABLE", message);

export function isLoopbackHttp(url: URL): boolean {
  return url.protocol === "http:" && ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
}

export function createOidcProvider(settings: OidcSettings): OidcProvider {
  const issuerUrl = new URL(settings.issuer);
  const insecure = isLoopbackHttp(issuerUrl);
  const http = insecure ? { [oauth.allowInsecureRequests]: true } : {};
  const client: oauth.Client = { client_id: settings.clientId };
  const clientAuth = oauth.ClientSecretBasic(settings.clientSecret);
  const jwks: oauth.JWKSCacheInput = {};
  let discovered: Promise<oauth.AuthorizationServer> | null = null;

  const server = (): Promise<oauth.AuthorizationServer> => {
    discovered ??= (async () => {
      try {
        const response = await oauth.discoveryRequest(issuerUrl, { algorithm: "oidc", ...http });
        return await oauth.processDiscoveryResponse(issuerUrl, response);
      } catch (e) {
        discovered = null;
        throw unavailable(`Cannot reach the identity provider: ${(e as Error).message}`);
      }
    })();
    return discovered;
  };

  return {
    issuer: settings.issuer,
    async start(redirectUri) {
      const as = await server();
      if (!as.authorization_endpoint) throw unavailable("The identity provider names no authorization endpoint");
      const keep: OidcSignInState = {
        state: oauth.generateRandomState(),
        nonce: oauth.generateRandomNonce(),
        code_verifier: oauth.generateRandomCodeVerifier(),
      };
      const url = new URL(as.authorization_endpoint);
      url.search = new URLSearchParams({
        response_type: "code",
        client_id: settings.clientId,
        redirect_uri: redirectUri,
        scope: settings.scope ?? "openid email profile",
        state: keep.state,
        nonce: keep.nonce,
        code_challenge: await oauth.calculatePKCECodeChallenge(keep.code_verifier),
        code_challenge_method: "S256",
      }).toString();
      return { url: url.href, keep };
    },
    async finish(callback, redirectUri, kept): Promise<Result<OidcClaims>> {
      const as = await server();
      let params: URLSearchParams;
      try {
        params = oauth.validateAuthResponse(as, client, callback, kept.state);
      } catch (e) {
        return fail("invalid_grant", `Sign-in failed: ${describe(e)}`);
      }
      let response: Response;
      try {
        response = await oauth.authorizationCodeGrantRequest(as, client, clientAuth, params, redirectUri, kept.code_verifier, http);
      } catch (e) {
        throw unavailable(`Cannot reach the identity provider: ${(e as Error).message}`);
      }
      try {
        const result = await oauth.processAuthorizationCodeResponse(as, client, response, {
          expectedNonce: kept.nonce,
          requireIdToken: true,
        });
        await oauth.validateApplicationLevelSignature(as, response, { [oauth.jwksCache]: jwks, ...http });
        const claims: Record<string, unknown> = { ...oauth.getValidatedIdTokenClaims(result)! };
        // A provider may keep the profile claims out of the ID token (OIDC Core §5.4 says so when
        // an access token is issued): ask its UserInfo endpoint, bound to the ID token's subject.
        if (typeof claims.email !== "string" && as.userinfo_endpoint) {
          const info = await oauth.userInfoRequest(as, client, result.access_token, http);
          Object.assign(claims, await oauth.processUserInfoResponse(as, client, claims.sub as string, info), {
            iss: claims.iss,
            sub: claims.sub,
          });
        }
        return ok({
          issuer: claims.iss as string,
          subject: claims.sub as string,
          email: typeof claims.email === "string" ? claims.email : null,
          email_verified: claims.email_verified === true,
          name: typeof claims.name === "string" ? claims.name : null,
        });
      } catch (e) {
        return fail("invalid_grant", `Sign-in failed: ${describe(e)}`);
      }
    },
  };
}

function describe(e: unknown): string {
  if (e instanceof oauth.AuthorizationResponseError) {
    return `the provider answered ${e.error}${e.error_description ? ` (${e.error_description})` : ""}`;
  }
  if (e instanceof oauth.ResponseBodyError) return `the provider refused the code: ${e.error}`;
  return (e as Error).message;
}
