import type { IdentityLink, OAuthClient, OAuthGrant, OAuthToken, Session } from "../../../core/identity/model.ts";

/**
 * Identity's documents. On FerretDB v1 an update is a read then a whole-document replacement, so
 * no document here is updated by two kinds of writer: a spent code, a rotated refresh token and a
 * reused code are claims (inserts into `oauth_claims`, unique `_id`); a grant's last use lives in
 * `oauth_grant_uses`, so a touch can never overwrite a revocation (ADR 005, ADR 028).
 */
export interface ClientDoc extends Omit<OAuthClient, "client_id"> {
  _id: string;
}

/** A code as issued, never updated: `_id` is its hash. */
export interface CodeDoc {
  _id: string;
  workspace_id: string;
  grant_id: string;
  client_id: string;
  identity_id: string;
  issuer: string;
  redirect_uri: string;
  scopes: OAuthGrant["scopes"];
  code_challenge: string;
  created_at: string;
  expires_at: string;
}

/** `_id`: `code:<hash>` (spent), `code-reused:<hash>` (attempted again), `refresh:<hash>` (rotated). */
export interface ClaimDoc {
  _id: string;
  workspace_id: string;
  at: string;
}

export const claimId = {
  spent: (codeHash: string) => `code:${codeHash}`,
  reused: (codeHash: string) => `code-reused:${codeHash}`,
  rotated: (tokenHash: string) => `refresh:${tokenHash}`,
};

/** A grant; only revocation updates it. */
export interface GrantDoc extends Omit<OAuthGrant, "id" | "last_used_at"> {
  _id: string;
}

/** A grant's last use (`_id`: the grant's id); last writer wins. */
export interface GrantUseDoc {
  _id: string;
  workspace_id: string;
  last_used_at: string;
}

/** A token, `_id` its hash; only an access token's own revocation updates it. */
export interface TokenDoc extends Omit<OAuthToken, "token_hash"> {
  _id: string;
}

export interface SessionDoc extends Omit<Session, "id"> {
  _id: string;
}

/** `_id` is the JSON of `[issuer, subject]`. */
export interface LinkDoc extends IdentityLink {
  _id: string;
}

export const linkId = (issuer: string, subject: string) => JSON.stringify([issuer, subject]);

export function clientDoc(c: OAuthClient): ClientDoc {
  const { client_id, ...rest } = c;
  return { _id: client_id, ...rest };
}

export function fromClientDoc(d: ClientDoc): OAuthClient {
  return {
    client_id: d._id,
    client_name: d.client_name,
    redirect_uris: d.redirect_uris,
    client_uri: d.client_uri,
    logo_uri: d.logo_uri,
    token_endpoint_auth_method: d.token_endpoint_auth_method,
    grant_types: d.grant_types,
    response_types: d.response_types,
    scope: d.scope,
    secret_hash: d.secret_hash,
    created_at: d.created_at,
  };
}

export function grantDoc(g: OAuthGrant): GrantDoc {
  const { id, last_used_at: _, ...rest } = g;
  return { _id: id, ...rest };
}

export function fromGrantDoc(d: GrantDoc, use: GrantUseDoc | null | undefined): OAuthGrant {
  return {
    id: d._id,
    workspace_id: d.workspace_id,
    identity_id: d.identity_id,
    client_id: d.client_id,
    scopes: d.scopes,
    issuer: d.issuer,
    created_at: d.created_at,
    last_used_at: use?.last_used_at ?? null,
    revoked_at: d.revoked_at,
  };
}

export function tokenDoc(t: OAuthToken): TokenDoc {
  const { token_hash, ...rest } = t;
  return { _id: token_hash, ...rest };
}

export function fromTokenDoc(d: TokenDoc): OAuthToken {
  return {
    token_hash: d._id,
    kind: d.kind,
    workspace_id: d.workspace_id,
    grant_id: d.grant_id,
    created_at: d.created_at,
    expires_at: d.expires_at,
    revoked_at: d.revoked_at,
  };
}

export function fromLinkDoc(d: LinkDoc): IdentityLink {
  return {
    issuer: d.issuer,
    subject: d.subject,
    identity_id: d.identity_id,
    email: d.email,
    created_at: d.created_at,
    deactivated_at: d.deactivated_at,
  };
}
