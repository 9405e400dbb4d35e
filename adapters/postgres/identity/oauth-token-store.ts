import type { OAuthToken, StoredRefreshToken } from "../../../core/identity/model.ts";
import type { OAuthTokenStore, TokenLookup } from "../../../core/identity/ports.ts";
import type { SqlDriver } from "../driver.ts";
import type { Row } from "../row-values.ts";
import { grantColumns, toGrant, tokenColumns, toRefreshToken, toToken } from "./rows.ts";

/** A token by its unique hash and its grant by primary key: one statement, two index probes. */
const FIND = `
  select ${tokenColumns("t", "t_")}, ${grantColumns("g", "g_")}
  from oauth_tokens t join oauth_grants g on g.workspace_id = t.workspace_id and g.id = t.grant_id
  where t.token_hash = $1 and t.kind = $2`;

export async function insertTokens(db: SqlDriver, tokens: OAuthToken[]): Promise<void> {
  if (tokens.length === 0) return;
  const values: string[] = [];
  const params: unknown[] = [];
  for (const t of tokens) {
    const base = params.push(t.workspace_id, t.token_hash, t.kind, t.grant_id, t.created_at, t.expires_at, t.revoked_at) - 7;
    values.push(`(${Array.from({ length: 7 }, (_, i) => `$${base + i + 1}`).join(", ")})`);
  }
  await db.query(
    `insert into oauth_tokens (workspace_id, token_hash, kind, grant_id, created_at, expires_at, revoked_at) values ${values.join(", ")}`,
    params,
  );
}

/**
 * `rotateRefresh` is a guarded update (`where rotated_at is null`) and the successors' insert, in
 * one transaction: of concurrent rotations of one token, the row lock lets one through; the others
 * re-check the guard and find it false.
 */
export class PostgresOAuthTokenStore implements OAuthTokenStore {
  constructor(private readonly db: SqlDriver) {}

  insert(tokens: OAuthToken[]): Promise<void> {
    return insertTokens(this.db, tokens);
  }

  async findAccess(tokenHash: string): Promise<TokenLookup | null> {
    const [row] = await this.db.query<Row>(FIND, [tokenHash, "access"]);
    return row ? { token: toToken(row, "t_"), grant: toGrant(row, "g_") } : null;
  }

  async findRefresh(tokenHash: string): Promise<TokenLookup<StoredRefreshToken> | null> {
    const [row] = await this.db.query<Row>(FIND, [tokenHash, "refresh"]);
    return row ? { token: toRefreshToken(row, "t_"), grant: toGrant(row, "g_") } : null;
  }

  rotateRefresh(tokenHash: string, next: OAuthToken[], at: string): Promise<"rotated" | "replayed" | "not_found"> {
    return this.db.transaction(async (tx) => {
      const rotated = await tx.query(
        `update oauth_tokens set rotated_at = $2 where token_hash = $1 and kind = 'refresh' and rotated_at is null returning token_hash`,
        [tokenHash, at],
      );
      if (rotated.length === 0) {
        const known = await tx.query(`select 1 from oauth_tokens where token_hash = $1 and kind = 'refresh'`, [tokenHash]);
        return known.length === 0 ? "not_found" : "replayed";
      }
      await insertTokens(tx, next);
      return "rotated";
    });
  }

  async revokeAccess(tokenHash: string, at: string): Promise<boolean> {
    const rows = await this.db.query(
      `update oauth_tokens set revoked_at = $2 where token_hash = $1 and kind = 'access' and revoked_at is null returning token_hash`,
      [tokenHash, at],
    );
    return rows.length === 1;
  }
}
