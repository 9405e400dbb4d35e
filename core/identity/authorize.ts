import { type Principal } from "../access/mod.ts";
import type { CoreDeps } from "../kernel/deps.ts";
import { issueCode } from "./codes.ts";
import { fail, ok, type Result } from "./errors.ts";
import type { OAuthClient, Scope } from "./model.ts";
import { CODE_CHALLENGE_METHODS, isCodeChallenge } from "./pkce.ts";
import type { IdentityStores } from "./ports.ts";
import { findRedirectUri } from "./redirect-uri.ts";
import { parseScope } from "./scopes.ts";

type AuthorizeDeps = CoreDeps<Pick<IdentityStores, "oauthClients" | "oauthCodes">>;

/** The parameters of an authorization request (RFC 6749 §4.1.1, RFC 7636, RFC 8707), as sent. */
export interface AuthorizationParams {
  client_id?: string | null;
  redirect_uri?: string | null;
  response_type?: string | null;
  scope?: string | null;
  state?: string | null;
  code_challenge?: string | null;
  code_challenge_method?: string | null;
  resource?: string | null;
}

/** A request that passed every check: what the consent page shows and the decision issues. */
export interface AuthorizationRequest {
  client: OAuthClient;
  redirect_uri: string;
  scopes: Scope[];
  state: string | null;
  code_challenge: string;
  code_challenge_method: "S256";
  resource: string | null;
}

/**
 * Why a request cannot proceed. `fatal`: the client or redirect URI cannot be trusted, so the user
 * is told on the page and never sent anywhere (RFC 6749 §4.1.2.1); `redirect`: the client is told,
 * at its redirect URI, with `error`, `state` and `iss`.
 */
export type AuthorizationRefusal =
  | { kind: "fatal"; description: string }
  | { kind: "redirect"; redirect_uri: string; state: string | null; error: string; description: string };

export type AuthorizationCheck = { ok: true; request: AuthorizationRequest } | { ok: false; refusal: AuthorizationRefusal };

/**
 * Checks an authorization request in the RFC's order: the client and its redirect URI first
 * (exact, but for a loopback IP's port), then `response_type` (`code`), PKCE (S256, for every
 * client), the scopes (the client's registered default when none is named; `work:read` always),
 * and the `resource` (RFC 8707: this service, `resourceOrigin`, or a URL under it).
 */
export async function checkAuthorizationRequest(
  deps: AuthorizeDeps,
  params: AuthorizationParams,
  resourceOrigin: string,
): Promise<AuthorizationCheck> {
  const refuse = (refusal: AuthorizationRefusal): AuthorizationCheck => ({ ok: false, refusal });
  if (!params.client_id) return refuse({ kind: "fatal", description: "Invalid request: client_id is missing" });
  const client = await deps.stores.oauthClients.get(params.client_id);
  if (!client) return refuse({ kind: "fatal", description: "Invalid request: the client is unknown" });
  if (!params.redirect_uri) return refuse({ kind: "fatal", description: "Invalid request: redirect_uri is missing" });
  if (!findRedirectUri(client.redirect_uris, params.redirect_uri)) {
    return refuse({ kind: "fatal", description: "Invalid request: redirect_uri is not one the client registered" });
  }
  const back = (error: string, description: string) =>
    refuse({ kind: "redirect", redirect_uri: params.redirect_uri!, state: params.state ?? null, error, description });
  if (params.response_type !== "code") {
    return back("unsupported_response_type", "Unsupported response_type: only code is supported");
  }
  if (!client.response_types.includes("code")) return back("unauthorized_client", "The client did not register response type code");
  if (!params.code_challenge || !isCodeChallenge(params.code_challenge)) {
    return back("invalid_request", "Invalid request: code_challenge (PKCE, S256) is required");
  }
  if (!(CODE_CHALLENGE_METHODS as readonly string[]).includes(params.code_challenge_method ?? "")) {
    return back("invalid_request", "Invalid request: code_challenge_method must be S256");
  }
  const scopes = parseScope(params.scope, client.scope);
  if (!scopes.ok) return back("invalid_scope", `Invalid scope: unknown ${scopes.unknown.join(", ")}`);
  if (params.resource && !isOwnResource(params.resource, resourceOrigin)) {
    return back("invalid_target", "Invalid resource: it is not this service");
  }
  return {
    ok: true,
    request: {
      client,
      redirect_uri: params.redirect_uri,
      scopes: scopes.scopes,
      state: params.state ?? null,
      code_challenge: params.code_challenge,
      code_challenge_method: "S256",
      resource: params.resource ?? null,
    },
  };
}

/** A resource indicator naming this service: its origin, or a URL under it; never a fragment. */
function isOwnResource(resource: string, origin: string): boolean {
  try {
    const url = new URL(resource);
    return url.origin === origin && url.hash === "" && url.username === "" && url.password === "";
  } catch {
    return false;
  }
}

/**
 * The decider's approval: a code for the person in their workspace, for the request's scopes,
 * redeemable only at `issuer`. Only a person decides (a faceless key is `forbidden`).
 */
export async function approveAuthorization(
  deps: AuthorizeDeps,
  p: Principal,
  req: AuthorizationRequest,
  issuer: string,
): Promise<Result<{ code: string }>> {
  if (p.kind !== "identity" || !p.identityId) {
    return fail("forbidden", "Cannot authorize a client: a service key acts for no person");
  }
  const issued = await issueCode(deps, {
    client_id: req.client.client_id,
    identity_id: p.identityId,
    workspace_id: p.workspaceId,
    issuer,
    redirect_uri: req.redirect_uri,
    scopes: req.scopes,
    code_challenge: req.code_challenge,
    code_challenge_method: req.code_challenge_method,
  });
  return issued.ok ? ok({ code: issued.value.code }) : issued;
}

/** Where the decision sends the user: the redirect URI with `code` or `error`, `state` and `iss` (RFC 9207). */
export function authorizationResponseUri(
  redirectUri: string,
  answer: { code: string } | { error: string; error_description?: string },
  state: string | null,
  issuer: string,
): string {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(answer)) if (v !== undefined) url.searchParams.append(k, v);
  if (state !== null) url.searchParams.append("state", state);
  url.searchParams.append("iss", issuer);
  return url.toString();
}
