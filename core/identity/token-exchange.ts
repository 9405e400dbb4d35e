import type { CoreDeps } from "../kernel/deps.ts";
import type { ClientCredentials } from "./client-credentials.ts";
import { authenticateClient } from "./clients.ts";
import type { TokenSet } from "./dto.ts";
import { fail, ok, type Result } from "./errors.ts";
import { GRANT_TYPES, type GrantType, type OAuthClient } from "./model.ts";
import type { IdentityStores } from "./ports.ts";
import { redeemCode } from "./redeem-code.ts";
import { refreshTokens } from "./refresh.ts";

type ExchangeDeps = CoreDeps<Pick<IdentityStores, "oauthClients" | "oauthCodes" | "oauthGrants" | "oauthTokens">>;

/** The parameters of a token or revocation request, each at most once (the server reads the form). */
export type TokenParams = ReadonlyMap<string, string>;

/** A request to the token endpoint (RFC 6749 §3.2), as the server read it. */
export interface TokenExchange {
  credentials: ClientCredentials;
  params: TokenParams;
  /** The issuer the request came to: codes and refresh tokens redeem only where they were issued. */
  issuer: string;
}

/** A grant the token endpoint serves, with the parameters it requires. */
export type GrantRequest =
  | { grant_type: "authorization_code"; code: string; code_verifier: string; redirect_uri: string }
  | { grant_type: "refresh_token"; refresh_token: string; scope: string | null };

const isGrantType = (v: string): v is GrantType => (GRANT_TYPES as readonly string[]).includes(v);

/**
 * Grant-type dispatch: the grant the request names and its required parameters (RFC 6749 §4.1.3:
 * `code`, `code_verifier` (RFC 7636), `redirect_uri`; §6: `refresh_token`, `scope` optional), for
 * a client that registered that grant type. No `grant_type` or a missing parameter is
 * `invalid_request`, a grant type this server does not serve `unsupported_grant_type`, one the
 * client did not register `unauthorized_client`.
 */
export function readGrantRequest(params: TokenParams, client: Pick<OAuthClient, "grant_types">): Result<GrantRequest> {
  const grantType = params.get("grant_type");
  if (!grantType) return fail("invalid_request", "Invalid request: grant_type is missing");
  if (!isGrantType(grantType)) {
    return fail("unsupported_grant_type", `Unsupported grant_type ${grantType}: expected one of ${GRANT_TYPES.join(", ")}`);
  }
  if (!client.grant_types.includes(grantType)) return fail("unauthorized_client", `The client did not register grant type ${grantType}`);
  if (grantType === "authorization_code") {
    const [code, verifier, redirectUri] = [params.get("code"), params.get("code_verifier"), params.get("redirect_uri")];
    if (!code || !verifier || !redirectUri) {
      return fail("invalid_request", "Invalid request: code, code_verifier and redirect_uri are required");
    }
    return ok({ grant_type: grantType, code, code_verifier: verifier, redirect_uri: redirectUri });
  }
  const refresh = params.get("refresh_token");
  if (!refresh) return fail("invalid_request", "Invalid request: refresh_token is required");
  return ok({ grant_type: grantType, refresh_token: refresh, scope: params.get("scope") ?? null });
}

/**
 * The token endpoint: the client authenticates as it registered (clients.ts), the grant is read
 * (readGrantRequest), then a code is redeemed (redeem-code.ts) or a refresh token rotated
 * (refresh.ts). Every refusal is an RFC 6749 §5.2 error, in that order.
 */
export async function exchangeToken(deps: ExchangeDeps, req: TokenExchange): Promise<Result<TokenSet>> {
  const client = await authenticateClient(deps, req.credentials);
  if (!client.ok) return client;
  const grant = readGrantRequest(req.params, client.value);
  if (!grant.ok) return grant;
  const g = grant.value;
  if (g.grant_type === "authorization_code") {
    const { code, code_verifier, redirect_uri } = g;
    return redeemCode(deps, { client: client.value, code, code_verifier, redirect_uri, issuer: req.issuer });
  }
  return refreshTokens(deps, { client: client.value, refresh_token: g.refresh_token, scope: g.scope, issuer: req.issuer });
}
