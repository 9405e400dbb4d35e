import { isUuid } from "../../../core/kernel/ids.ts";
import type { ShareLink } from "../../../core/sharing/model.ts";
import type { ShareLinkStore, ShareMatch } from "../../../core/sharing/ports.ts";
import { FOREIGN_KEY_VIOLATION, iso, type SqlDriver, sqlState } from "../driver.ts";
import { type Row, strOrNull } from "../row-values.ts";
import { toWorkspace, workspaceColumns } from "../workspaces/mod.ts";
import { topicColumns, toTopic } from "../topics/mod.ts";

export const LINK_COLUMNS = ["id", "workspace_id", "topic_id", "token_hash", "created_by", "created_at"];
const linkColumns = (alias: string, prefix = "") => LINK_COLUMNS.map((c) => `${alias}.${c} as ${prefix}${c}`).join(", ");

export function toLink(r: Row, prefix = ""): ShareLink {
  return {
    id: r[`${prefix}id`] as string,
    workspace_id: r[`${prefix}workspace_id`] as string,
    topic_id: r[`${prefix}topic_id`] as string,
    token_hash: r[`${prefix}token_hash`] as string,
    created_by: strOrNull(r[`${prefix}created_by`]),
    created_at: iso(r[`${prefix}created_at`]),
  };
}

/** The public lookup: the link by its unique hash, its workspace and its topic. One statement. */
const FIND_BY_HASH = `
  select ${linkColumns("l", "l_")}, ${workspaceColumns("w", "w_")}, ${topicColumns("t")}
  from share_links l
  join workspaces w on w.id = l.workspace_id
  join topics t on t.workspace_id = l.workspace_id and t.id = l.topic_id
  where l.token_hash = $1`;

/** One active link per topic: the topic is the primary key, so issuing replaces and revoking deletes. */
export class PostgresShareLinkStore implements ShareLinkStore {
  constructor(private readonly db: SqlDriver) {}

  async issue(link: ShareLink): Promise<"ok" | "not_found"> {
    if (!isUuid(link.workspace_id) || !isUuid(link.topic_id)) return "not_found";
    try {
      const rows = await this.db.query(
        `insert into share_links (workspace_id, topic_id, id, token_hash, created_by, created_at)
         select $1::uuid, $2::uuid, $3::uuid, $4::text, $5::uuid, $6::timestamptz
         where exists (select 1 from topics where workspace_id = $1 and id = $2)
         on conflict (workspace_id, topic_id) do update
           set id = excluded.id, token_hash = excluded.token_hash, created_by = excluded.created_by, created_at = excluded.created_at
         returning id`,
        [link.workspace_id, link.topic_id, link.id, link.token_hash, link.created_by, link.created_at],
      );
      return rows.length === 1 ? "ok" : "not_found";
    } catch (e) {
      // The topic was deleted between the check and the foreign key's.
      if (sqlState(e) === FOREIGN_KEY_VIOLATION) return "not_found";
      throw e;
    }
  }

  async get(workspaceId: string, topicId: string): Promise<ShareLink | null> {
    if (!isUuid(workspaceId) || !isUuid(topicId)) return null;
    const rows = await this.db.query<Row>(`select ${linkColumns("l")} from share_links l where l.workspace_id = $1 and l.topic_id = $2`, [
      workspaceId,
      topicId,
    ]);
    return rows[0] ? toLink(rows[0]) : null;
  }

  async revoke(workspaceId: string, topicId: string): Promise<boolean> {
    if (!isUuid(workspaceId) || !isUuid(topicId)) return false;
    const rows = await this.db.query(`delete from share_links where workspace_id = $1 and topic_id = $2 returning id`, [
      workspaceId,
      topicId,
    ]);
    return rows.length > 0;
  }

  async findByHash(tokenHash: string): Promise<ShareMatch | null> {
    const rows = await this.db.query<Row>(FIND_BY_HASH, [tokenHash]);
    const r = rows[0];
    if (!r) return null;
    return { link: toLink(r, "l_"), workspace: toWorkspace(r, "w_"), topic: toTopic(r) };
  }
}
