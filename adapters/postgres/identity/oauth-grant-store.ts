import type { OAuthGrant } from "../../../core/identity/model.ts";
import type { GrantPage, OAuthGrantStore } from "../../../core/identity/ports.ts";
import type { SqlDriver } from "../driver.ts";
import type { Row } from "../row-values.ts";
import { grantColumns, toGrant } from "./rows.ts";

/** Revoking is one update of the grant row: its tokens are read with it and stop with it. */
export class PostgresOAuthGrantStore implements OAuthGrantStore {
  constructor(private readonly db: SqlDriver) {}

  async insert(g: OAuthGrant): Promise<void> {
    await this.db.query(
      `insert into oauth_grants (workspace_id, id, identity_id, client_id, scopes, issuer, created_at, last_used_at, revoked_at)
       values ($1, $2, $3, $4, $5::text[], $6, $7, $8, $9) on conflict (workspace_id, id) do nothing`,
      [g.workspace_id, g.id, g.identity_id, g.client_id, g.scopes, g.issuer, g.created_at, g.last_used_at, g.revoked_at],
    );
  }

  async get(workspaceId: string, grantId: string): Promise<OAuthGrant | null> {
    const [row] = await this.db.query<Row>(`select ${grantColumns("g")} from oauth_grants g where g.workspace_id = $1 and g.id = $2`, [
      workspaceId,
      grantId,
    ]);
    return row ? toGrant(row) : null;
  }

  async list(workspaceId: string, identityId: string | null, page: GrantPage): Promise<OAuthGrant[]> {
    const params: unknown[] = [workspaceId, Math.max(0, Math.trunc(page.limit))];
    const where = ["g.workspace_id = $1", "g.revoked_at is null"];
    if (identityId !== null) where.push(`g.identity_id = $${params.push(identityId)}`);
    if (page.before !== undefined) where.push(`g.id < $${params.push(page.before)}`);
    const rows = await this.db.query<Row>(
      `select ${grantColumns("g")} from oauth_grants g where ${where.join(" and ")} order by g.id desc limit $2`,
      params,
    );
    return rows.map((r) => toGrant(r));
  }

  async revoke(workspaceId: string, grantId: string, at: string): Promise<boolean> {
    const rows = await this.db.query(
      `update oauth_grants set revoked_at = $3 where workspace_id = $1 and id = $2 and revoked_at is null returning id`,
      [workspaceId, grantId, at],
    );
    return rows.length === 1;
  }

  async revokeAllOfIdentity(identityId: string, at: string): Promise<void> {
    await this.db.query(`update oauth_grants set revoked_at = $2 where identity_id = $1 and revoked_at is null`, [identityId, at]);
  }

  async touch(workspaceId: string, grantId: string, at: string): Promise<void> {
    await this.db.query(`update oauth_grants set last_used_at = $3 where workspace_id = $1 and id = $2`, [workspaceId, grantId, at]);
  }
}
