import { isUuid } from "../../../core/kernel/ids.ts";
import type { OffsetPage } from "../../../core/kernel/paging.ts";
import { type ApprovedVia, type Proposal, type ProposalDecision, type ProposalStatus } from "../../../core/topics/model.ts";
import type { ProposalPatch } from "../../../core/topics/dto.ts";
import type { ProposalFilter, ProposalStore } from "../../../core/topics/ports.ts";
import type { Listed } from "../../../core/workspaces/ports.ts";
import { iso, isoOrNull, type SqlDriver } from "../driver.ts";
import { listPage, pageParams } from "../listing.ts";
import { type Row, strOrNull } from "../row-values.ts";

/**
 * Proposals and relations on PostgreSQL (migrations/004-proposals-relations.ts). Each port method
 * is one statement or one transaction; uniqueness is the database's (`on conflict do nothing`
 * waits for a concurrent insert of the same key, then skips).
 */
export const PROPOSAL_COLUMNS =
  "workspace_id, id, topic_id, summary, patch, base_version, status, author_id, via, created_at, decided_at, decided_by, merged_version";

export function toProposal(r: Row): Proposal {
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
    const rows = await this.db.query<Row>(`select ${PROPOSAL_COLUMNS} from topic_proposals where workspace_id = $1 and id = $2`, [
      workspaceId,
      id,
    ]);
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
      page: `select ${PROPOSAL_COLUMNS} ${filtered} order by created_at ${dir}, id ${dir} limit $${
        params.length - 1
      } offset $${params.length}`,
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
