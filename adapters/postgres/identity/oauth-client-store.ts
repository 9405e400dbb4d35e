import type { OAuthClient } from "../../../core/identity/model.ts";
import type { OAuthClientStore } from "../../../core/identity/ports.ts";
import type { SqlDriver } from "../driver.ts";
import type { Row } from "../row-values.ts";
import { clientColumns, toClient } from "./rows.ts";

export class PostgresOAuthClientStore implements OAuthClientStore {
  constructor(private readonly db: SqlDriver) {}

  async insert(c: OAuthClient): Promise<"ok" | "taken"> {
    const rows = await this.db.query(
      `insert into oauth_clients (client_id, client_name, redirect_uris, client_uri, logo_uri, token_endpoint_auth_method,
                                  grant_types, response_types, scope, secret_hash, created_at)
       values ($1, $2, $3::text[], $4, $5, $6, $7::text[], $8::text[], $9, $10, $11)
       on conflict (client_id) do nothing returning client_id`,
      [
        c.client_id,
        c.client_name,
        c.redirect_uris,
        c.client_uri,
        c.logo_uri,
        c.token_endpoint_auth_method,
        c.grant_types,
        c.response_types,
        c.scope,
        c.secret_hash,
        c.created_at,
      ],
    );
    return rows.length === 1 ? "ok" : "taken";
  }

  async get(clientId: string): Promise<OAuthClient | null> {
    const [row] = await this.db.query<Row>(`select ${clientColumns("c")} from oauth_clients c where c.client_id = $1`, [clientId]);
    return row ? toClient(row) : null;
  }

  async getMany(clientIds: string[]): Promise<OAuthClient[]> {
    if (clientIds.length === 0) return [];
    const rows = await this.db.query<Row>(`select ${clientColumns("c")} from oauth_clients c where c.client_id = any($1::text[])`, [
      clientIds,
    ]);
    return rows.map(toClient);
  }
}
