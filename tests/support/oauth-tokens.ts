import type { Scope } from "../../core/access/scopes.ts";
import type { ComposedDeps } from "../../core/deps.ts";
import { type TokenSet } from "../../core/identity/dto.ts";
import { issueCode, redeemCode, registerClient } from "../../core/identity/mod.ts";
import { s256Challenge } from "../../core/identity/pkce.ts";
import type { TestApp } from "./test-app.ts";

/**
 * Real OAuth tokens for HTTP tests, issued by the core use cases the authorization server calls:
 * a client is registered, a code issued for the person of `apiKey` (as `/me` names them) and
 * redeemed. The issuer is the root mount of `http://localhost`, the test app's origin.
 */
export const TEST_ISSUER = "http://localhost";

export async function issueTokens(
  core: ComposedDeps,
  who: { identityId: string; workspaceId: string },
  scopes: Scope[],
  issuer = TEST_ISSUER,
): Promise<TokenSet & { client_id: string; grant_id: string }> {
  const redirect = "http://127.0.0.1/callback";
  const client = await registerClient(core, {
    redirect_uris: [redirect],
    client_name: "Test agent",
    grant_types: ["authorization_code", "refresh_token"],
  });
  if (!client.ok) throw new Error(client.error.description);
  const verifier = "v".repeat(43);
  const code = await issueCode(core, {
    client_id: client.value.client_id,
    identity_id: who.identityId,
    workspace_id: who.workspaceId,
    issuer,
    redirect_uri: redirect,
    scopes,
    code_challenge: s256Challenge(verifier),
    code_challenge_method: "S256",
  });
  if (!code.ok) throw new Error(code.error.description);
  const stored = await core.stores.oauthClients.get(client.value.client_id);
  const tokens = await redeemCode(core, {
    client: stored!,
    code: code.value.code,
    code_verifier: verifier,
    redirect_uri: redirect,
    issuer,
  });
  if (!tokens.ok) throw new Error(tokens.error.description);
  return { ...tokens.value, client_id: client.value.client_id, grant_id: code.value.grant_id };
}

/** Tokens for the person of an API key, in the key's workspace (as `/me` names them), with `scopes`. */
export async function issueTokensFor(
  t: TestApp,
  apiKey: string,
  scopes: Scope[],
): Promise<TokenSet & { client_id: string; grant_id: string }> {
  const me = await t.call("GET", "/me", { key: apiKey });
  if (me.status !== 200) throw new Error(`GET /me answered ${me.status}: ${JSON.stringify(me.body)}`);
  return issueTokens(t.core, { identityId: me.body.identity.id, workspaceId: me.body.workspace.id }, scopes);
}
