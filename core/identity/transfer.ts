import type { TransferKindSpec } from "../kernel/transfer-kind-spec.ts";
import type { OAuthToken } from "./model.ts";

/**
 * Identity's kinds as they move between stores (core/kernel/store-transfer.ts, ADR 067), in write
 * order: clients before the grants, codes and tokens that name them, grants before their tokens.
 * Clients, sessions and links are no workspace's (a person's, or no one's); codes, grants and
 * tokens are. Secrets stay as stored: a client's `secret_hash`, a code's and a token's hash, a
 * session's id (the hash of its cookie): a copied one still answers the same secret.
 */
export const IDENTITY_KINDS = {
  oauthClients: { name: "identity.oauth_clients", tenant: false, key: ["client_id"] },
  oauthGrants: { name: "identity.oauth_grants", tenant: true, key: ["id"] },
  oauthCodes: { name: "identity.oauth_codes", tenant: true, key: ["code_hash"] },
  oauthTokens: { name: "identity.oauth_tokens", tenant: true, key: ["token_hash"] },
  sessions: { name: "identity.sessions", tenant: false, key: ["id"] },
  identityLinks: { name: "identity.identity_links", tenant: false, key: ["issuer", "subject"] },
} as const satisfies Record<string, TransferKindSpec>;

/** A token as it moves: a refresh token's rotation with it (null for an access token, and a refresh token not yet exchanged). */
export type OAuthTokenDoc = OAuthToken & { rotated_at: string | null };
