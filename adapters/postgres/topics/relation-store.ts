import { isUuid } from "../../../core/kernel/ids.ts";
import type { TopicStatus } from "../../../core/topics/governance.ts";
import { type GraphFingerprint, type GraphNodeRow, type Relation, relationKey, type RelationType } from "../../../core/topics/model.ts";
import type { RelationStore } from "../../../core/topics/ports.ts";
import { FOREIGN_KEY_VIOLATION, inTransaction, iso, isoOrNull, type SqlDriver, sqlState } from "../driver.ts";
import { type Row, strOrNull } from "../row-values.ts";

export const RELATION_COLUMNS = "workspace_id, id, from_topic_id, to_topic_id, type, created_at, created_by";
const NODE_COLUMNS = "id, slug, title, status, approved_at, drifted";

export function toRelation(r: Row): Relation {
  return {
    id: String(r.id),
    workspace_id: String(r.workspace_id),
    from_topic_id: String(r.from_topic_id),
    to_topic_id: String(r.to_topic_id),
    type: r.type as RelationType,
    created_at: iso(r.created_at),
    created_by: strOrNull(r.created_by),
  };
}

function toNode(r: Row): GraphNodeRow {
  return {
    id: String(r.id),
    slug: String(r.slug),
    title: String(r.title),
    status: r.status as TopicStatus,
    approved_at: isoOrNull(r.approved_at),
    drifted: r.drifted === true,
  };
}

/** Advances the workspace's relation marker, inside the caller's transaction. */
async function bump(tx: SqlDriver, workspaceId: string): Promise<void> {
  await tx.query(
    `insert into topic_relation_markers (workspace_id, marker) values ($1, 1)
     on conflict (workspace_id) do update set marker = topic_relation_markers.marker + 1`,
    [workspaceId],
  );
}

async function insertRelation(tx: SqlDriver, r: Relation): Promise<boolean> {
  const rows = await tx.query(
    `insert into topic_relations (${RELATION_COLUMNS}, key) values ($1, $2, $3, $4, $5, $6, $7, $8)
     on conflict (workspace_id, key) do nothing
     returning id`,
    [
      r.workspace_id,
      r.id,
      r.from_topic_id,
      r.to_topic_id,
      r.type,
      r.created_at,
      r.created_by,
      relationKey(r.from_topic_id, r.to_topic_id, r.type),
    ],
  );
  return rows.length === 1;
}

export class PostgresRelationStore implements RelationStore {
  constructor(private readonly db: SqlDriver) {}

  async insert(r: Relation): Promise<"ok" | "duplicate" | "not_found"> {
    if (![r.workspace_id, r.from_topic_id, r.to_topic_id].every(isUuid)) return "not_found";
    try {
      return await inTransaction<"ok" | "duplicate" | "not_found">(this.db, async (tx) => {
        if (!(await insertRelation(tx, r))) return "duplicate";
        await bump(tx, r.workspace_id);
        return "ok";
      });
    } catch (e) {
      if (sqlState(e) === FOREIGN_KEY_VIOLATION) return "not_found"; // a topic of another workspace, or gone
      throw e;
    }
  }

  async get(workspaceId: string, id: string): Promise<Relation | null> {
    if (!isUuid(workspaceId) || !isUuid(id)) return null;
    const rows = await this.db.query<Row>(`select ${RELATION_COLUMNS} from topic_relations where workspace_id = $1 and id = $2`, [
      workspaceId,
      id,
    ]);
    return rows[0] ? toRelation(rows[0]) : null;
  }

  async delete(workspaceId: string, id: string): Promise<boolean> {
    if (!isUuid(workspaceId) || !isUuid(id)) return false;
    return inTransaction<boolean>(this.db, async (tx) => {
      const rows = await tx.query(`delete from topic_relations where workspace_id = $1 and id = $2 returning id`, [workspaceId, id]);
      if (rows.length === 0) return false;
      await bump(tx, workspaceId);
      return true;
    });
  }

  async ofTopics(workspaceId: string, topicIds: readonly string[], limit: number): Promise<Relation[]> {
    const ids = topicIds.filter(isUuid);
    if (!isUuid(workspaceId) || ids.length === 0) return [];
    const rows = await this.db.query<Row>(
      `select ${RELATION_COLUMNS} from topic_relations
       where workspace_id = $1 and (from_topic_id = any($2::uuid[]) or to_topic_id = any($2::uuid[]))
       order by created_at, id limit $3`,
      [workspaceId, ids, Math.max(0, Math.trunc(limit))],
    );
    return rows.map(toRelation);
  }

  async list(workspaceId: string, limit: number): Promise<Relation[]> {
    if (!isUuid(workspaceId)) return [];
    const rows = await this.db.query<Row>(
      `select ${RELATION_COLUMNS} from topic_relations where workspace_id = $1 order by created_at, id limit $2`,
      [workspaceId, Math.max(0, Math.trunc(limit))],
    );
    return rows.map(toRelation);
  }

  async retarget(workspaceId: string, sourceId: string, targetId: string, newId: () => string): Promise<number> {
    if (![workspaceId, sourceId, targetId].every(isUuid)) return 0;
    return inTransaction<number>(this.db, async (tx) => {
      const moving = (
        await tx.query<Row>(
          `delete from topic_relations where workspace_id = $1 and (from_topic_id = $2 or to_topic_id = $2) returning ${RELATION_COLUMNS}`,
          [workspaceId, sourceId],
        )
      )
        .map(toRelation)
        .sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id < b.id ? -1 : 1));
      if (moving.length === 0) return 0;
      let n = 0;
      for (const r of moving) {
        const from = r.from_topic_id === sourceId ? targetId : r.from_topic_id;
        const to = r.to_topic_id === sourceId ? targetId : r.to_topic_id;
        if (from === to) continue;
        if (await insertRelation(tx, { ...r, id: newId(), from_topic_id: from, to_topic_id: to })) n++;
      }
      await bump(tx, workspaceId);
      return n;
    });
  }

  async removeTopic(workspaceId: string, topicId: string): Promise<void> {
    if (!isUuid(workspaceId) || !isUuid(topicId)) return;
    await inTransaction<void>(this.db, async (tx) => {
      const rows = await tx.query(
        `delete from topic_relations where workspace_id = $1 and (from_topic_id = $2 or to_topic_id = $2) returning id`,
        [
          workspaceId,
          topicId,
        ],
      );
      if (rows.length > 0) await bump(tx, workspaceId);
    });
  }

  async nodes(workspaceId: string, ids: readonly string[]): Promise<GraphNodeRow[]> {
    const wanted = [...new Set(ids.filter(isUuid))];
    if (!isUuid(workspaceId) || wanted.length === 0) return [];
    const rows = await this.db.query<Row>(`select ${NODE_COLUMNS} from topics where workspace_id = $1 and id = any($2::uuid[])`, [
      workspaceId,
      wanted,
    ]);
    return rows.map(toNode);
  }

  async allNodes(workspaceId: string, includeArchived: boolean, limit: number): Promise<GraphNodeRow[]> {
    if (!isUuid(workspaceId)) return [];
    const rows = await this.db.query<Row>(
      `select ${NODE_COLUMNS} from topics where workspace_id = $1 ${
        includeArchived ? "" : "and status <> 'archived'"
      } order by id limit $2`,
      [workspaceId, Math.max(0, Math.trunc(limit))],
    );
    return rows.map(toNode);
  }

  async fingerprint(workspaceId: string, staleBefore: string): Promise<GraphFingerprint> {
    if (!isUuid(workspaceId)) return { lastEventId: null, eventCount: 0, relationMarker: "0", staleCount: 0 };
    // Four index reads in one statement (one snapshot): the timeline index's first row and its
    // count, the marker's row, the reviewed-approved range.
    const rows = await this.db.query<Row>(
      `select
         (select id::text from topic_events where workspace_id = $1 order by at desc, id desc limit 1) as last_event,
         (select count(*)::int from topic_events where workspace_id = $1) as events,
         (select marker::text from topic_relation_markers where workspace_id = $1) as marker,
         (select count(*)::int from topics where workspace_id = $1 and status = 'reviewed' and approved_at < $2::timestamptz) as stale`,
      [workspaceId, staleBefore],
    );
    const r = rows[0] ?? {};
    return {
      lastEventId: strOrNull(r.last_event),
      eventCount: Number(r.events ?? 0),
      relationMarker: strOrNull(r.marker) ?? "0",
      staleCount: Number(r.stale ?? 0),
    };
  }
}
