/**
 * Proposals and relations on PostgreSQL (migrations/004-proposals-relations.ts). Each port method
 * is one statement or one transaction; uniqueness is the database's (`on conflict do nothing`
 * waits for a concurrent insert of the same key, then skips).
 */
import { isUuid } from "../../core/kernel/ids.ts";
import type { OffsetPage } from "../../core/kernel/paging.ts";
import type { TopicStatus } from "../../core/topics/governance.ts";
import { type ApprovedVia, type GraphFingerprint, type GraphNodeRow, type Proposal, type ProposalDecision, type ProposalStatus, type Relation, relationKey, type RelationType } from "../../core/topics/model.ts";
import type { ProposalPatch } from "../../core/topics/dto.ts";
import type { ProposalFilter, ProposalStore, RelationStore } from "../../core/topics/ports.ts";
import type { Listed } from "../../core/workspaces/ports.ts";
import { FOREIGN_KEY_VIOLATION, inTransaction, iso, isoOrNull, type SqlDriver, sqlState } from "./driver.ts";
import { listPage, pageParams } from "./listing.ts";
import { type Row, strOrNull } from "./rows.ts";


// ---- proposals ----

const PROPOSAL_COLUMNS =
  "workspace_id, id, topic_id, summary, patch, base_version, status, author_id, via, created_at, decided_at, decided_by, merged_version";

function toProposal(r: Row): Proposal {
  return {
    id: String(r.id),
    workspace_id: String(r.workspace_id),
    topic_id: String(r.topic_id),
    summary: String(r.summary),
    patch: r.patch as ProposalPatch,
    base_version: Number(r.base_version),
    status: r.status as ProposalStatus,
    author_id: strOrNull(r.author_id),
    via: r.via as ApprovedVia,
    created_at: iso(r.created_at),
    decided_at: isoOrNull(r.decided_at),
    decided_by: strOrNull(r.decided_by),
    merged_version: r.merged_version === null || r.merged_version === undefined ? null : Number(r.merged_version),
  };
}

export class PostgresProposalStore implements ProposalStore {
  constructor(private readonly db: SqlDriver) {}

  async insert(p: Proposal): Promise<void> {
    await this.db.query(
      `insert into topic_proposals (${PROPOSAL_COLUMNS}) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
      [
        p.workspace_id,
        p.id,
        p.topic_id,
        p.summary,
        p.patch,
        p.base_version,
        p.status,
        p.author_id,
        p.via,
        p.created_at,
        p.decided_at,
        p.decided_by,
        p.merged_version,
      ],
    );
  }

  async get(workspaceId: string, id: string): Promise<Proposal | null> {
    if (!isUuid(workspaceId) || !isUuid(id)) return null;
    const rows = await this.db.query<Row>(`select ${PROPOSAL_COLUMNS} from topic_proposals where workspace_id = $1 and id = $2`, [workspaceId, id]);
    return rows[0] ? toProposal(rows[0]) : null;
  }

  list(workspaceId: string, f: ProposalFilter, order: "newest" | "oldest", page: OffsetPage): Promise<Listed<Proposal>> {
    if (!isUuid(workspaceId) || (f.topicId !== undefined && !isUuid(f.topicId))) return Promise.resolve({ items: [], total: 0 });
    const params: unknown[] = [workspaceId];
    const where = ["workspace_id = $1"];
    if (f.topicId) where.push(`topic_id = $${params.push(f.topicId)}`);
    if (f.status) where.push(`status = $${params.push(f.status)}`);
    const dir = order === "newest" ? "desc" : "asc";
    const [limit, offset] = pageParams(page);
    params.push(limit, offset);
    const filtered = `from topic_proposals where ${where.join(" and ")}`;
    return listPage(this.db, {
      page: `select ${PROPOSAL_COLUMNS} ${filtered} order by created_at ${dir}, id ${dir} limit $${params.length - 1} offset $${params.length}`,
      count: `select count(*)::int as total ${filtered}`,
      order: `page.created_at ${dir}, page.id ${dir}`,
      params,
      map: toProposal,
    });
  }

  async decide(workspaceId: string, id: string, d: ProposalDecision): Promise<"ok" | "not_open" | "not_found"> {
    if (!isUuid(workspaceId) || !isUuid(id)) return "not_found";
    // One statement: the row lock makes concurrent deciders queue, and each re-checks `status`.
    const rows = await this.db.query<Row>(
      `with decided as (
         update topic_proposals set status = $3, decided_at = $4, decided_by = $5, merged_version = $6
         where workspace_id = $1 and id = $2 and status = 'open'
         returning id
       )
       select (select count(*)::int from decided) as decided,
              (select count(*)::int from topic_proposals where workspace_id = $1 and id = $2) as found`,
      [workspaceId, id, d.status, d.decided_at, d.decided_by, d.merged_version],
    );
    if (Number(rows[0]?.decided) === 1) return "ok";
    return Number(rows[0]?.found) === 1 ? "not_open" : "not_found";
  }

  async removeTopic(workspaceId: string, topicId: string): Promise<void> {
    if (!isUuid(workspaceId) || !isUuid(topicId)) return;
    await this.db.query(`delete from topic_proposals where workspace_id = $1 and topic_id = $2`, [workspaceId, topicId]);
  }
}

// ---- relations ----

const RELATION_COLUMNS = "workspace_id, id, from_topic_id, to_topic_id, type, created_at, created_by";
const NODE_COLUMNS = "id, slug, title, status, approved_at, drifted";

function toRelation(r: Row): Relation {
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
    [r.workspace_id, r.id, r.from_topic_id, r.to_topic_id, r.type, r.created_at, r.created_by, relationKey(r.from_topic_id, r.to_topic_id, r.type)],
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
    const rows = await this.db.query<Row>(`select ${RELATION_COLUMNS} from topic_relations where workspace_id = $1 and id = $2`, [workspaceId, id]);
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
      const rows = await tx.query(`delete from topic_relations where workspace_id = $1 and (from_topic_id = $2 or to_topic_id = $2) returning id`, [
        workspaceId,
        topicId,
      ]);
      if (rows.length > 0) await bump(tx, workspaceId);
    });
  }

  async nodes(workspaceId: string, ids: readonly string[]): Promise<GraphNodeRow[]> {
    const wanted = [...new Set(ids.filter(isUuid))];
    if (!isUuid(workspaceId) || wanted.length === 0) return [];
    const rows = await this.db.query<Row>(`select ${NODE_COLUMNS} from topics where workspace_id = $1 and id = any($2::uuid[])`, [workspaceId, wanted]);
    return rows.map(toNode);
  }

  async allNodes(workspaceId: string, includeArchived: boolean, limit: number): Promise<GraphNodeRow[]> {
    if (!isUuid(workspaceId)) return [];
    const rows = await this.db.query<Row>(
      `select ${NODE_COLUMNS} from topics where workspace_id = $1 ${includeArchived ? "" : "and status <> 'archived'"} order by id limit $2`,
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
