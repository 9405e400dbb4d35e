import type { ApiKeyRecord } from "../../../core/access/model.ts";
import type { ApiKeyStore, KeyMatch } from "../../../core/access/ports.ts";
import type { OffsetPage } from "../../../core/kernel/paging.ts";
import type { Listed } from "../../../core/workspaces/ports.ts";
import { isUuid } from "../../../core/kernel/ids.ts";
import type { SqlDriver } from "../driver.ts";
import { listPage, pageParams } from "../listing.ts";
import { apiKeyColumns, toApiKey } from "./rows.ts";
import { memberColumns, toMember, toWorkspace, workspaceColumns } from "../workspaces/mod.ts";
import { type Row } from "../row-values.ts";

/** Inserts a key; shared with the workspace bootstrap, which runs it in its transaction. */
export async function insertApiKey(db: SqlDriver, k: ApiKeyRecord): Promise<void> {
  await db.query(
    `insert into api_keys (workspace_id, id, name, prefix, identity_id, created_by, key_hash, key_ciphertext, created_at, last_used_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [k.workspace_id, k.id, k.name, k.prefix, k.identity_id, k.created_by, k.key_hash, k.key_ciphertext, k.created_at, k.last_used_at],
  );
}

/**
 * The authentication lookup: the key by its unique hash, its workspace by primary key, and the
 * membership of the key's identity by the (workspace_id, identity_id) unique key. One statement,
 * three index probes.
 */
const FIND_BY_HASH = `
  select ${apiKeyColumns("k", "k_")}, ${workspaceColumns("w", "w_")}, ${memberColumns("m", "m_")}
  from api_keys k
  join workspaces w on w.id = k.workspace_id
  left join members m on m.workspace_id = k.workspace_id and m.identity_id = k.identity_id
  where k.key_hash = $1`;

export class PostgresApiKeyStore implements ApiKeyStore {
  constructor(private readonly db: SqlDriver) {}

  insert(key: ApiKeyRecord): Promise<void> {
    return insertApiKey(this.db, key);
  }

  async findByHash(keyHash: string): Promise<KeyMatch | null> {
    const rows = await this.db.query<Row>(FIND_BY_HASH, [keyHash]);
    const r = rows[0];
    if (!r) return null;
    return {
      key: toApiKey(r, "k_"),
      workspace: toWorkspace(r, "w_"),
      member: r.m_id === null || r.m_id === undefined ? null : toMember(r, "m_"),
    };
  }

  list(workspaceId: string, page: OffsetPage, identityId?: string | null, keyId?: string): Promise<Listed<ApiKeyRecord>> {
    const none = Promise.resolve({ items: [], total: 0 });
    if (!isUuid(workspaceId)) return none;
    const params: unknown[] = [workspaceId];
    let where = "workspace_id = $1";
    if (identityId !== undefined) {
      // null narrows to service keys, a string to the keys acting as that identity.
      if (identityId === null) where += " and identity_id is null";
      else {
        if (!isUuid(identityId)) return none;
        params.push(identityId);
        where += ` and identity_id = $${params.length}`;
      }
    }
    if (keyId !== undefined) {
      if (!isUuid(keyId)) return none;
      params.push(keyId);
      where += ` and id = $${params.length}`;
    }
    const [limit, offset] = pageParams(page);
    params.push(limit, offset);
    return listPage(this.db, {
      page: `select ${apiKeyColumns("k")} from api_keys k where ${where}
             order by created_at desc, id desc
             limit $${params.length - 1} offset $${params.length}`,
      count: `select count(*)::int as total from api_keys where ${where}`,
      order: "page.created_at desc, page.id desc",
      params,
      map: (r) => toApiKey(r),
    });
  }

  async revoke(workspaceId: string, keyId: string): Promise<boolean> {
    if (!isUuid(workspaceId) || !isUuid(keyId)) return false;
    const rows = await this.db.query(`delete from api_keys where workspace_id = $1 and id = $2 returning id`, [
      workspaceId,
      keyId,
    ]);
    return rows.length > 0;
  }

  async touch(workspaceId: string, keyId: string, at: string): Promise<void> {
    if (!isUuid(workspaceId) || !isUuid(keyId)) return;
    // Only forwards: a late, older touch never overwrites a newer one.
    await this.db.query(
      `update api_keys set last_used_at = $3
       where workspace_id = $1 and id = $2 and (last_used_at is null or last_used_at < $3)`,
      [workspaceId, keyId, at],
    );
  }
}
