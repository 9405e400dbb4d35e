import type { CoreDeps } from "../kernel/deps.ts";
import { uuidv7 } from "../kernel/ids.ts";
import { fail, ok, type Result } from "./errors.ts";
import { codeExpiry } from "./lifetimes.ts";
import type { AuthorizationCode, Scope } from "./model.ts";
import { CODE_CHALLENGE_METHODS, isCodeChallenge } from "./pkce.ts";
import type { IdentityStores } from "./ports.ts";
import { findRedirectUri } from "./redirect-uri.ts";
import { hashSecret, newAuthorizationCode } from "./token-format.ts";

type CodeDeps = CoreDeps<Pick<IdentityStores, "oauthClients" | "oauthCodes">>;

/** An approved authorization request: who allowed which client what, where. */
export interface CodeRequest {
  client_id: string;
  identity_id: string;
  workspace_id: string;
  /** The issuer deciding (the root, or a workspace mount): the code redeems only there. */
  issuer: string;
  redirect_uri: string;
  scopes: Scope[];
  code_challenge: string;
  code_challenge_method: string;
}

export interface IssuedCode {
  code: string;
  expires_at: string;
  grant_id: string;
}

/**
 * Issues the code of an approved request (the decider's membership and the scopes were checked by
 * the caller). The client must exist, the redirect URI be one it registered (RFC 8252 §7.3 for
 * loopback ports), and PKCE be S256. The code lives 60 s; only its hash is stored.
 */
export async function issueCode(deps: CodeDeps, req: CodeRequest): Promise<Result<IssuedCode>> {
  const client = await deps.stores.oauthClients.get(req.client_id);
  if (!client) return fail("invalid_client", "Unknown client");
  if (!client.response_types.includes("code")) return fail("unauthorized_client", "Client did not register response type code");
  if (!findRedirectUri(client.redirect_uris, req.redirect_uri)) {
    return fail("invalid_request", "Invalid redirect_uri: it is not one the client registered");
  }
  if (!(CODE_CHALLENGE_METHODS as readonly string[]).includes(req.code_challenge_method)) {
    return fail("invalid_request", "Invalid code_challenge_method: expected S256");
  }
  if (!isCodeChallenge(req.code_challenge)) return fail("invalid_request", "Invalid code_challenge: expected 43 base64url characters");
  const now = deps.clock.now();
  const raw = newAuthorizationCode();
  const code: AuthorizationCode = {
    code_hash: hashSecret(raw),
    workspace_id: req.workspace_id,
    grant_id: uuidv7(now.getTime()),
    client_id: client.client_id,
    identity_id: req.identity_id,
    issuer: req.issuer,
    redirect_uri: req.redirect_uri,
    scopes: [...req.scopes],
    code_challenge: req.code_challenge,
    created_at: now.toISOString(),
    expires_at: codeExpiry(now),
  };
  await deps.stores.oauthCodes.insert(code);
  return ok({ code: raw, expires_at: code.expires_at, grant_id: code.grant_id });
}
