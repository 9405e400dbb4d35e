import type {
  ClientAuthMethod,
  GrantType,
  IdentityLink,
  OAuthClient,
  OAuthGrant,
  OAuthToken,
  ResponseType,
  Scope,
  Session,
  StoredCode,
  StoredRefreshToken,
  TokenKind,
} from "../../../core/identity/model.ts";
import { iso, isoOrNull } from "../driver.ts";
import { type Row, str, strOrNull } from "../row-values.ts";

/** Column lists and row mappers of identity's tables. */
const columns = (names: readonly string[], alias: string, prefix = "") => names.map((c) => `${alias}.${c} as ${prefix}${c}`).join(", ");

const CLIENT = [
  "client_id",
  "client_name",
  "redirect_uris",
  "client_uri",
  "logo_uri",
  "token_endpoint_auth_method",
  "grant_types",
  "response_types",
  "scope",
  "secret_hash",
  "created_at",
] as const;
const CODE = [
  "code_hash",
  "workspace_id",
  "grant_id",
  "client_id",
  "identity_id",
  "issuer",
  "redirect_uri",
  "scopes",
  "code_challenge",
  "created_at",
  "expires_at",
  "spent_at",
  "reused_at",
] as const;
const GRANT = ["id", "workspace_id", "identity_id", "client_id", "scopes", "issuer", "created_at", "last_used_at", "revoked_at"] as const;
const TOKEN = ["token_hash", "kind", "workspace_id", "grant_id", "created_at", "expires_at", "revoked_at", "rotated_at"] as const;

export const clientColumns = (alias: string) => columns(CLIENT, alias);
export const codeColumns = (alias: string) => columns(CODE, alias);
export const grantColumns = (alias: string, prefix = "") => columns(GRANT, alias, prefix);
export const tokenColumns = (alias: string, prefix = "") => columns(TOKEN, alias, prefix);

const strs = <T extends string>(v: unknown): T[] => [...(v as T[])];

export function toClient(r: Row): OAuthClient {
  return {
    client_id: str(r.client_id),
    client_name: strOrNull(r.client_name),
    redirect_uris: strs(r.redirect_uris),
    client_uri: strOrNull(r.client_uri),
    logo_uri: strOrNull(r.logo_uri),
    token_endpoint_auth_method: str(r.token_endpoint_auth_method) as ClientAuthMethod,
    grant_types: strs<GrantType>(r.grant_types),
    response_types: strs<ResponseType>(r.response_types),
    scope: strOrNull(r.scope),
    secret_hash: strOrNull(r.secret_hash),
    created_at: iso(r.created_at),
  };
}

export function toCode(r: Row): StoredCode {
  return {
    code_hash: str(r.code_hash),
    workspace_id: str(r.workspace_id),
    grant_id: str(r.grant_id),
    client_id: str(r.client_id),
    identity_id: str(r.identity_id),
    issuer: str(r.issuer),
    redirect_uri: str(r.redirect_uri),
    scopes: strs<Scope>(r.scopes),
    code_challenge: str(r.code_challenge),
    created_at: iso(r.created_at),
    expires_at: iso(r.expires_at),
    spent_at: isoOrNull(r.spent_at),
    reused_at: isoOrNull(r.reused_at),
  };
}

export function toGrant(r: Row, prefix = ""): OAuthGrant {
  return {
    id: str(r[`${prefix}id`]),
    workspace_id: str(r[`${prefix}workspace_id`]),
    identity_id: str(r[`${prefix}identity_id`]),
    client_id: str(r[`${prefix}client_id`]),
    scopes: strs<Scope>(r[`${prefix}scopes`]),
    issuer: str(r[`${prefix}issuer`]),
    created_at: iso(r[`${prefix}created_at`]),
    last_used_at: isoOrNull(r[`${prefix}last_used_at`]),
    revoked_at: isoOrNull(r[`${prefix}revoked_at`]),
  };
}

export function toToken(r: Row, prefix = ""): OAuthToken {
  return {
    token_hash: str(r[`${prefix}token_hash`]),
    kind: str(r[`${prefix}kind`]) as TokenKind,
    workspace_id: str(r[`${prefix}workspace_id`]),
    grant_id: str(r[`${prefix}grant_id`]),
    created_at: iso(r[`${prefix}created_at`]),
    expires_at: iso(r[`${prefix}expires_at`]),
    revoked_at: isoOrNull(r[`${prefix}revoked_at`]),
  };
}

export function toRefreshToken(r: Row, prefix = ""): StoredRefreshToken {
  return { ...toToken(r, prefix), kind: "refresh", rotated_at: isoOrNull(r[`${prefix}rotated_at`]) };
}

export function toSession(r: Row): Session {
  return { id: str(r.id), identity_id: str(r.identity_id), created_at: iso(r.created_at), expires_at: iso(r.expires_at) };
}

export function toLink(r: Row): IdentityLink {
  return {
    issuer: str(r.issuer),
    subject: str(r.subject),
    identity_id: str(r.identity_id),
    email: str(r.email),
    created_at: iso(r.created_at),
    deactivated_at: isoOrNull(r.deactivated_at),
  };
}
