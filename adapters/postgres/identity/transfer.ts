import type { IdentityLink, OAuthClient, OAuthGrant, Session, StoredCode } from "../../../core/identity/model.ts";
import { IDENTITY_KINDS, type OAuthTokenDoc } from "../../../core/identity/transfer.ts";
import type { TransferKind } from "../../../core/kernel/store-transfer.ts";
import type { SqlDriver } from "../driver.ts";
import { plainColumns, sqlKind, type SqlTransferColumn } from "../transfer-kind.ts";
import {
  clientColumns,
  codeColumns,
  grantColumns,
  toClient,
  toCode,
  toGrant,
  tokenColumns,
  toLink,
  toRefreshToken,
  toSession,
} from "./rows.ts";

const texts = <D>(name: keyof D & string): SqlTransferColumn<D> => ({ name, cast: "text[]", value: (d) => d[name] });

/** Identity's kinds over its tables (migration 013); a row's mapper is the store's own. */
export function sqlIdentityTransfer(db: SqlDriver): TransferKind[] {
  const K = IDENTITY_KINDS;
  return [
    sqlKind<OAuthClient>(db, {
      spec: K.oauthClients,
      table: "oauth_clients",
      select: clientColumns("t"),
      toDoc: toClient,
      keyColumns: [{ name: "client_id", text: true }],
      columns: [
        ...plainColumns<OAuthClient>("client_id", "client_name"),
        texts("redirect_uris"),
        ...plainColumns<OAuthClient>("client_uri", "logo_uri", "token_endpoint_auth_method"),
        texts("grant_types"),
        texts("response_types"),
        ...plainColumns<OAuthClient>("scope", "secret_hash", "created_at"),
      ],
    }),
    sqlKind<OAuthGrant>(db, {
      spec: K.oauthGrants,
      table: "oauth_grants",
      select: grantColumns("t"),
      toDoc: (r) => toGrant(r),
      keyColumns: [{ name: "id", text: false }],
      columns: [
        ...plainColumns<OAuthGrant>("workspace_id", "id", "identity_id", "client_id"),
        texts("scopes"),
        ...plainColumns<OAuthGrant>("issuer", "created_at", "last_used_at", "revoked_at"),
      ],
    }),
    sqlKind<StoredCode>(db, {
      spec: K.oauthCodes,
      table: "oauth_codes",
      select: codeColumns("t"),
      toDoc: toCode,
      keyColumns: [{ name: "code_hash", text: true }],
      columns: [
        ...plainColumns<StoredCode>("workspace_id", "code_hash", "grant_id", "client_id", "identity_id", "issuer", "redirect_uri"),
        texts("scopes"),
        ...plainColumns<StoredCode>("code_challenge", "created_at", "expires_at", "spent_at", "reused_at"),
      ],
    }),
    sqlKind<OAuthTokenDoc>(db, {
      spec: K.oauthTokens,
      table: "oauth_tokens",
      select: tokenColumns("t"),
      // Every token carries `rotated_at` (null for an access token), as the memory table keeps it.
      toDoc: (r) => ({ ...toRefreshToken(r), kind: r.kind as OAuthTokenDoc["kind"] }),
      keyColumns: [{ name: "token_hash", text: true }],
      columns: plainColumns<OAuthTokenDoc>(
        "workspace_id",
        "token_hash",
        "kind",
        "grant_id",
        "created_at",
        "expires_at",
        "revoked_at",
        "rotated_at",
      ),
    }),
    sqlKind<Session>(db, {
      spec: K.sessions,
      table: "auth_sessions",
      select: "t.id, t.identity_id, t.created_at, t.expires_at",
      toDoc: toSession,
      keyColumns: [{ name: "id", text: true }],
      columns: plainColumns<Session>("id", "identity_id", "created_at", "expires_at"),
    }),
    sqlKind<IdentityLink>(db, {
      spec: K.identityLinks,
      table: "identity_links",
      select: "t.issuer, t.subject, t.identity_id, t.email, t.created_at, t.deactivated_at",
      toDoc: toLink,
      keyColumns: [{ name: "issuer", text: true }, { name: "subject", text: true }],
      columns: plainColumns<IdentityLink>("issuer", "subject", "identity_id", "email", "created_at", "deactivated_at"),
    }),
  ];
}
