/**
 * An OAuth client built on `oauth4webapi` (a strict, certified RFC implementation) against the real
 * server process (`bun server/main.ts`, embedded store), at both mounts: the root issuer
 * `{origin}` and the workspace issuer `{origin}/api/v1/workspaces/{slug}`. For each: discovery
 * (RFC 8414, the well-known name inserted before the issuer's path), dynamic registration of a
 * public and a confidential client (RFC 7591), an authorization request with PKCE S256 and state,
 * the consent decided by posting the page's form with an API key (the no-identity-provider
 * fallback), the callback validated (`state`, `iss`: RFC 9207), the code exchanged, a protected
 * call, refresh-token rotation and replay, and revocation (RFC 7009).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import * as oauth from "oauth4webapi";
import { type AppServer, bootstrapWorkspace, startAppServer } from "../support/app-server.ts";
import { decideConsent } from "../support/consent-form.ts";

/** Plain http on loopback: oauth4webapi refuses it unless told. */
const insecure = { [oauth.allowInsecureRequests]: true } as const;
const REDIRECT_URI = "http://127.0.0.1:8765/callback";

describe("OAuth 2.1 end to end with oauth4webapi", () => {
  let server: AppServer;
  let slug: string;
  let apiKey: string;

  beforeAll(async () => {
    server = await startAppServer({ name: "oauth-e2e", env: { LOG_LEVEL: "warn" } });
    ({ slug, apiKey } = await bootstrapWorkspace(server.origin, "oauth-e2e"));
  });

  afterAll(async () => {
    await server?.stop();
  });

  /** Discovery, as a client that knows only the issuer identifier does it. */
  async function discover(issuer: URL): Promise<oauth.AuthorizationServer> {
    return oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: "oauth2", ...insecure }));
  }

  async function register(as: oauth.AuthorizationServer, metadata: Partial<oauth.OmitSymbolProperties<oauth.Client>>) {
    const response = await oauth.dynamicClientRegistrationRequest(as, metadata, insecure);
    expect(response.status).toBe(201);
    return oauth.processDynamicClientRegistrationResponse(response);
  }

  /** An authorization request built by oauth4webapi: PKCE S256, state, the scopes asked. */
  async function authorizationRequest(as: oauth.AuthorizationServer, client: oauth.Client, scope: string) {
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const url = new URL(as.authorization_endpoint!);
    url.searchParams.set("client_id", client.client_id);
    url.searchParams.set("redirect_uri", REDIRECT_URI);
    url.searchParams.set("response_type", "code");
    url.searchParams.set("scope", scope);
    url.searchParams.set("state", state);
    url.searchParams.set("code_challenge", await oauth.calculatePKCECodeChallenge(verifier));
    url.searchParams.set("code_challenge_method", "S256");
    return { url, verifier, state };
  }

  /** The whole front channel and the code exchange: tokens for `client`. */
  async function authorize(as: oauth.AuthorizationServer, client: oauth.Client, auth: oauth.ClientAuth, scope: string) {
    const { url, verifier, state } = await authorizationRequest(as, client, scope);
    const callback = await decideConsent(url, apiKey);
    expect(`${callback.origin}${callback.pathname}`).toBe(REDIRECT_URI);
    expect(callback.searchParams.get("iss")).toBe(as.issuer);
    const params = oauth.validateAuthResponse(as, client, callback, state);
    const response = await oauth.authorizationCodeGrantRequest(as, client, auth, params, REDIRECT_URI, verifier, insecure);
    expect(response.headers.get("cache-control")).toBe("no-store");
    return oauth.processAuthorizationCodeResponse(as, client, response);
  }

  /** A protected call with the access token: `/me`, as oauth4webapi sends it. */
  const me = async (accessToken: string) => {
    const response = await oauth.protectedResourceRequest(
      accessToken,
      "GET",
      new URL(`${server.origin}/api/v1/me`),
      undefined,
      undefined,
      insecure,
    );
    return { status: response.status, body: await response.json() };
  };
  /** The challenge the server answers a refused token with, as oauth4webapi parses it. */
  const refusal = async (accessToken: string) => {
    const error = await me(accessToken).then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(oauth.WWWAuthenticateChallengeError);
    const challenge = error as oauth.WWWAuthenticateChallengeError;
    return { status: challenge.status, challenges: challenge.cause };
  };
  const refresh = async (as: oauth.AuthorizationServer, client: oauth.Client, auth: oauth.ClientAuth, token: string) =>
    oauth.processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, auth, token, insecure));
  /** The OAuth error code a rejected promise carries (oauth4webapi's ResponseBodyError). */
  const oauthErrorOf = async (p: Promise<unknown>) => {
    const error = await p.then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(oauth.ResponseBodyError);
    return (error as oauth.ResponseBodyError).error;
  };

  const mounts = [
    { name: "the root issuer", issuer: () => new URL(server.origin), wellKnown: () => "/.well-known/oauth-authorization-server" },
    {
      name: "the workspace issuer",
      issuer: () => new URL(`${server.origin}/api/v1/workspaces/${slug}`),
      wellKnown: () => `/.well-known/oauth-authorization-server/api/v1/workspaces/${slug}`,
    },
  ];

  for (const mount of mounts) {
    describe(mount.name, () => {
      let as: oauth.AuthorizationServer;

      test("discovery: RFC 8414 metadata at the well-known name inserted before the issuer's path", async () => {
        const issuer = mount.issuer();
        // What oauth4webapi asks for is where the server answers (RFC 8414 §3.1).
        const direct = await fetch(`${server.origin}${mount.wellKnown()}`);
        expect(direct.status).toBe(200);
        as = await discover(issuer);
        const base = issuer.pathname === "/" ? `${server.origin}/api/v1` : issuer.href;
        expect(as).toMatchObject({
          issuer: issuer.pathname === "/" ? server.origin : issuer.href,
          authorization_endpoint: `${base}/oauth/authorize`,
          token_endpoint: `${base}/oauth/token`,
          registration_endpoint: `${base}/oauth/register`,
          revocation_endpoint: `${base}/oauth/revoke`,
          response_types_supported: ["code"],
          code_challenge_methods_supported: ["S256"],
          grant_types_supported: ["authorization_code", "refresh_token"],
          authorization_response_iss_parameter_supported: true,
        });
        expect(as.scopes_supported).toEqual(["work:read", "work:write", "topics:write"]);
        expect(as.token_endpoint_auth_methods_supported).toEqual(["none", "client_secret_basic", "client_secret_post"]);
      });

      test("a public client: registration, PKCE, consent, code, API call, rotation; a replayed refresh token revokes the grant", async () => {
        const client = await register(as, {
          client_name: "E2E public agent",
          redirect_uris: [REDIRECT_URI],
          token_endpoint_auth_method: "none",
          grant_types: ["authorization_code", "refresh_token"],
        });
        expect(client.client_id).toStartWith("wkc_");
        expect(client.client_secret).toBeUndefined();
        const auth = oauth.None();

        const tokens = await authorize(as, client, auth, "work:read work:write");
        expect(tokens.token_type).toBe("bearer");
        expect(tokens.access_token).toStartWith("wkat_");
        expect(tokens.refresh_token).toStartWith("wkrt_");
        expect(tokens.scope).toBe("work:read work:write");
        expect(tokens.expires_in).toBe(3600);

        const who = await me(tokens.access_token);
        expect(who.status).toBe(200);
        expect(who.body.principal).toMatchObject({ via: "oauth", client_id: client.client_id, scopes: ["work:read", "work:write"] });
        expect(who.body.workspace.slug).toBe(slug);
        // A write with work:write, over the REST API.
        const written = await oauth.protectedResourceRequest(
          tokens.access_token,
          "POST",
          new URL(`${server.origin}/api/v1/workspaces/${slug}/topics`),
          new Headers({ "content-type": "application/json" }),
          JSON.stringify({ title: `Written by the ${mount.name}'s token` }),
          insecure,
        );
        expect(written.status).toBe(201);

        // Rotation: a new pair.
        const rotated = await refresh(as, client, auth, tokens.refresh_token!);
        expect(rotated.refresh_token).toStartWith("wkrt_");
        expect(rotated.refresh_token).not.toBe(tokens.refresh_token);
        expect(rotated.access_token).not.toBe(tokens.access_token);
        expect((await me(rotated.access_token)).status).toBe(200);

        // The rotated-out refresh token again: a replay, invalid_grant, and the whole grant ends.
        expect(await oauthErrorOf(refresh(as, client, auth, tokens.refresh_token!))).toBe("invalid_grant");
        expect(await oauthErrorOf(refresh(as, client, auth, rotated.refresh_token!))).toBe("invalid_grant");
        const refused = await refusal(rotated.access_token);
        expect(refused.status).toBe(401);
        expect(refused.challenges[0]).toMatchObject({
          scheme: "bearer",
          parameters: { error: "invalid_token", resource_metadata: `${server.origin}/.well-known/oauth-protected-resource` },
        });
      });

      test("a confidential client (client_secret_basic): code, refresh, then RFC 7009 revocation of each token", async () => {
        const client = await register(as, {
          client_name: "E2E confidential app",
          redirect_uris: [REDIRECT_URI],
          token_endpoint_auth_method: "client_secret_basic",
          grant_types: ["authorization_code", "refresh_token"],
        });
        expect(client.client_secret).toStartWith("wkcs_");
        const auth = oauth.ClientSecretBasic(client.client_secret as string);
        // Without its secret the client is not let in.
        const bare = await authorizationRequest(as, client, "work:read");
        const bareCallback = await decideConsent(bare.url, apiKey);
        const noSecret = await oauth.authorizationCodeGrantRequest(
          as,
          client,
          oauth.None(),
          oauth.validateAuthResponse(as, client, bareCallback, bare.state),
          REDIRECT_URI,
          bare.verifier,
          insecure,
        );
        expect(noSecret.status).toBe(401);

        const tokens = await authorize(as, client, auth, "work:read");
        expect(tokens.scope).toBe("work:read");
        expect((await me(tokens.access_token)).status).toBe(200);

        // Revoking the access token ends it at once; the grant lives on.
        await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, auth, tokens.access_token, insecure));
        const refused = await refusal(tokens.access_token);
        expect(refused.status).toBe(401);
        expect(refused.challenges[0]!.parameters.error).toBe("invalid_token");
        const rotated = await refresh(as, client, auth, tokens.refresh_token!);
        expect((await me(rotated.access_token)).status).toBe(200);

        // Revoking the refresh token ends its grant: its access tokens and the refresh itself.
        await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, auth, rotated.refresh_token!, insecure));
        expect((await refusal(rotated.access_token)).status).toBe(401);
        expect(await oauthErrorOf(refresh(as, client, auth, rotated.refresh_token!))).toBe("invalid_grant");
        // An unknown token is 200 too (RFC 7009 §2.2).
        await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, auth, "wkat_unknown", insecure));
      });

      test("a denial comes back as access_denied with state and iss, which oauth4webapi reports", async () => {
        const client = await register(as, { redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: "none" });
        const { url, state } = await authorizationRequest(as, client, "work:read");
        const callback = await decideConsent(url, "", "deny");
        expect(callback.searchParams.get("iss")).toBe(as.issuer);
        const error = (() => {
          try {
            oauth.validateAuthResponse(as, client, callback, state);
            return null;
          } catch (e) {
            return e;
          }
        })();
        expect(error).toBeInstanceOf(oauth.AuthorizationResponseError);
        expect((error as oauth.AuthorizationResponseError).error).toBe("access_denied");
      });
    });
  }

  test("a code from one mount does not redeem at the other", async () => {
    const [root, workspace] = await Promise.all([discover(mounts[0]!.issuer()), discover(mounts[1]!.issuer())]);
    const client = await register(root, { redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: "none" });
    const { url, verifier, state } = await authorizationRequest(workspace, client, "work:read");
    const params = oauth.validateAuthResponse(workspace, client, await decideConsent(url, apiKey), state);
    const response = await oauth.authorizationCodeGrantRequest(root, client, oauth.None(), params, REDIRECT_URI, verifier, insecure);
    expect(await oauthErrorOf(oauth.processAuthorizationCodeResponse(root, client, response))).toBe("invalid_grant");
  });
});
