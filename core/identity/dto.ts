import { type Static, type TSchema, Type } from "@sinclair/typebox";
import { literalUnion } from "../kernel/literal-union.ts";
import { CLIENT_AUTH_METHODS, GRANT_TYPES, RESPONSE_TYPES, SCOPES } from "./model.ts";

/**
 * What crosses identity's API: client metadata in and out (RFC 7591), token answers (RFC 6749
 * §5.1), grant views, and their limits. Registration reads its body by hand (client-metadata.ts):
 * RFC 7591 §2 has unknown metadata ignored, not refused.
 */
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** Most redirect URIs one client may register. */
export const MAX_REDIRECT_URIS = 10;
export const MAX_CLIENT_NAME_LENGTH = 200;
export const MAX_CLIENT_URI_LENGTH = 2000;
/** Grant lists: keyset pages of at most this many. */
export const GRANTS_LIMIT = { default: 50, max: 100 } as const;

/** What a client may read about a client: public, never a secret (`GET /oauth/clients/{id}`). */
export const ClientInfo = Type.Object({
  client_id: Type.String(),
  client_name: Nullable(Type.String()),
  client_uri: Nullable(Type.String()),
  logo_uri: Nullable(Type.String()),
  redirect_uris: Type.Array(Type.String()),
  token_endpoint_auth_method: literalUnion(CLIENT_AUTH_METHODS),
  grant_types: Type.Array(literalUnion(GRANT_TYPES)),
  response_types: Type.Array(literalUnion(RESPONSE_TYPES)),
  scope: Nullable(Type.String()),
  client_type: literalUnion(["public", "confidential"] as const),
  client_id_issued_at: Type.Integer({ description: "Seconds since the epoch (RFC 7591 §3.2.1)." }),
});
export type ClientInfo = Static<typeof ClientInfo>;

/** Metadata a client may leave out: null in ClientInfo, absent from the registration's answer. */
const OPTIONAL_METADATA = ["client_name", "client_uri", "logo_uri", "scope"] as const;

/**
 * The answer of registration (RFC 7591 §3.2.1): the client's information, metadata it did not
 * register left out rather than null (client libraries validate each field as a string when
 * present: the MCP SDK refuses a null `client_uri`), and its secret, shown this once, when
 * confidential.
 */
export const RegisteredClient = Type.Object({
  ...Type.Omit(ClientInfo, OPTIONAL_METADATA).properties,
  client_name: Type.Optional(Type.String()),
  client_uri: Type.Optional(Type.String()),
  logo_uri: Type.Optional(Type.String()),
  scope: Type.Optional(Type.String()),
  client_secret: Type.Optional(Type.String()),
  client_secret_expires_at: Type.Optional(Type.Integer({ description: "0: the secret does not expire." })),
});
export type RegisteredClient = Static<typeof RegisteredClient>;

/** The registration's answer for a client's information: absent metadata left out. */
export function registrationAnswer(info: ClientInfo): RegisteredClient {
  const out: Record<string, unknown> = { ...info };
  for (const k of OPTIONAL_METADATA) if (out[k] === null) delete out[k];
  return out as RegisteredClient;
}

/** A token endpoint answer (RFC 6749 §5.1). */
export const TokenSet = Type.Object({
  access_token: Type.String(),
  token_type: Type.Literal("Bearer"),
  expires_in: Type.Integer(),
  scope: Type.String(),
  refresh_token: Type.Optional(Type.String()),
});
export type TokenSet = Static<typeof TokenSet>;

/** A grant as its workspace's lists show it. */
export const GrantView = Type.Object({
  id: Type.String(),
  identity_id: Type.String(),
  client_id: Type.String(),
  client_name: Nullable(Type.String()),
  scopes: Type.Array(literalUnion(SCOPES)),
  created_at: Type.String(),
  last_used_at: Nullable(Type.String()),
});
export type GrantView = Static<typeof GrantView>;
