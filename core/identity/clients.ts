import { constantTimeEqual } from "../kernel/mac.ts";
import type { CoreDeps } from "../kernel/deps.ts";
import type { ClientCredentials } from "./client-credentials.ts";
import { readClientMetadata } from "./client-metadata.ts";
import { type ClientInfo, type RegisteredClient, registrationAnswer } from "./dto.ts";
import { fail, ok, type Result } from "./errors.ts";
import type { OAuthClient } from "./model.ts";
import type { IdentityStores } from "./ports.ts";
import { hashSecret, newClientId, newClientSecret } from "./token-format.ts";

type ClientDeps = CoreDeps<Pick<IdentityStores, "oauthClients">>;

/**
 * Dynamic client registration (RFC 7591): a public client (`none`) gets an id; a confidential one
 * also a secret, returned here once and stored as its SHA-256 only.
 */
export async function registerClient(deps: ClientDeps, body: unknown): Promise<Result<RegisteredClient>> {
  const read = readClientMetadata(body);
  if (!read.ok) return read;
  const meta = read.value;
  const secret = meta.token_endpoint_auth_method === "none" ? null : newClientSecret();
  for (;;) {
    const client: OAuthClient = {
      client_id: newClientId(),
      ...meta,
      secret_hash: secret === null ? null : hashSecret(secret),
      created_at: deps.clock.now().toISOString(),
    };
    // 128 random bits: "taken" is for the store's sake, not a case that happens.
    if ((await deps.stores.oauthClients.insert(client)) === "taken") continue;
    const info = registrationAnswer(clientInfoOf(client));
    return ok(secret === null ? info : { ...info, client_secret: secret, client_secret_expires_at: 0 });
  }
}

/** A client's public information; never its secret. */
export async function clientInformation(deps: ClientDeps, clientId: string): Promise<Result<ClientInfo>> {
  const client = await deps.stores.oauthClients.get(clientId);
  return client ? ok(clientInfoOf(client)) : fail("not_found", "Client not found");
}

export function clientInfoOf(c: OAuthClient): ClientInfo {
  return {
    client_id: c.client_id,
    client_name: c.client_name,
    client_uri: c.client_uri,
    logo_uri: c.logo_uri,
    redirect_uris: [...c.redirect_uris],
    token_endpoint_auth_method: c.token_endpoint_auth_method,
    grant_types: [...c.grant_types],
    response_types: [...c.response_types],
    scope: c.scope,
    client_type: c.secret_hash === null ? "public" : "confidential",
    client_id_issued_at: Math.floor(new Date(c.created_at).getTime() / 1000),
  };
}

/**
 * The client, if it authenticated as it registered: a public client by its id alone, a
 * confidential one with its secret by its registered method. Anything else is `invalid_client`.
 */
export async function authenticateClient(deps: ClientDeps, creds: ClientCredentials): Promise<Result<OAuthClient>> {
  const client = await deps.stores.oauthClients.get(creds.client_id);
  const refuse = fail<OAuthClient>("invalid_client", "Client authentication failed");
  if (!client) return refuse;
  if (client.token_endpoint_auth_method === "none") return creds.method === "none" ? ok(client) : refuse;
  const expected = client.token_endpoint_auth_method === "client_secret_basic" ? "basic" : "post";
  if (creds.method !== expected || !creds.client_secret || client.secret_hash === null) return refuse;
  const enc = new TextEncoder();
  return constantTimeEqual(enc.encode(hashSecret(creds.client_secret)), enc.encode(client.secret_hash)) ? ok(client) : refuse;
}
