import type { AuthorizationCode, StoredCode } from "../../../core/identity/model.ts";
import type { CodeSpend, OAuthCodeStore } from "../../../core/identity/ports.ts";
import type { SqlDriver } from "../driver.ts";
import type { Row } from "../row-values.ts";
import { codeColumns, toCode } from "./rows.ts";

/**
 * `spend` is a guarded update (`where spent_at is null`): of concurrent ones, the row lock lets
 * one through and the others re-check the guard, find it false, and mark the code reused instead.
 */
export class PostgresOAuthCodeStore implements OAuthCodeStore {
  constructor(private readonly db: SqlDriver) {}

  async insert(c: AuthorizationCode): Promise<void> {
    await this.db.query(
      `insert into oauth_codes (workspace_id, code_hash, grant_id, client_id, identity_id, issuer, redirect_uri, scopes,
                                code_challenge, created_at, expires_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8::text[], $9, $10, $11)`,
      [
        c.workspace_id,
        c.code_hash,
        c.grant_id,
        c.client_id,
        c.identity_id,
        c.issuer,
        c.redirect_uri,
        c.scopes,
        c.code_challenge,
        c.created_at,
        c.expires_at,
      ],
    );
  }

  async spend(codeHash: string, at: string): Promise<CodeSpend | null> {
    const [first] = await this.db.query<Row>(
      `update oauth_codes c set spent_at = $2 where c.code_hash = $1 and c.spent_at is null returning ${codeColumns("c")}`,
      [codeHash, at],
    );
    if (first) return { code: toCode(first), first: true };
    const [again] = await this.db.query<Row>(
      `update oauth_codes c set reused_at = coalesce(c.reused_at, $2) where c.code_hash = $1 returning ${codeColumns("c")}`,
      [codeHash, at],
    );
    return again ? { code: toCode(again), first: false } : null;
  }

  async get(codeHash: string): Promise<StoredCode | null> {
    const [row] = await this.db.query<Row>(`select ${codeColumns("c")} from oauth_codes c where c.code_hash = $1`, [codeHash]);
    return row ? toCode(row) : null;
  }
}
