import type { Workspace } from "../../../core/workspaces/model.ts";
import type { WorkspaceCounts } from "../../../core/workspaces/dto.ts";
import type { BootstrapBundle, Listed, WorkspaceFilter, WorkspaceStore } from "../../../core/workspaces/ports.ts";
import type { OffsetPage } from "../../../core/kernel/paging.ts";
import { isUuid } from "../../../core/kernel/ids.ts";
import { inTransaction, type SqlDriver } from "../driver.ts";
import { insertApiKey } from "../access/mod.ts";
import { type Row } from "../row-values.ts";
import { toWorkspace, workspaceColumns } from "./rows.ts";

type BootstrapResult = "ok" | "slug_taken" | "email_taken";

export class PostgresWorkspaceStore implements WorkspaceStore {
  constructor(private readonly db: SqlDriver) {}

  bootstrap(b: BootstrapBundle): Promise<BootstrapResult> {
    return inTransaction<BootstrapResult>(this.db, async (tx, abort) => {
      // The slug first, then the e-mail, as the memory adapter checks them. `on conflict do
      // nothing` waits for a concurrent insert of the same key and then skips: no exception to
      // poison the transaction, and the refusal rolls back whatever came before it.
      const ws = await tx.query(
        `insert into workspaces (id, slug, name, plan, settings, created_at, updated_at)
         values ($1, $2, $3, $4, $5, $6, $7)
         on conflict (slug) do nothing
         returning id`,
        [
          b.workspace.id,
          b.workspace.slug,
          b.workspace.name,
          b.workspace.plan,
          b.workspace.settings,
          b.workspace.created_at,
          b.workspace.updated_at,
        ],
      );
      if (ws.length === 0) return abort("slug_taken");
      if (b.owner.isNew) {
        const o = b.owner.identity;
        const ins = await tx.query(
          `insert into identities (id, email, name, created_at) values ($1, $2, $3, $4)
           on conflict (email) do nothing
           returning id`,
          [o.id, o.email, o.name, o.created_at],
        );
        if (ins.length === 0) return abort("email_taken");
      }
      const m = b.member;
      await tx.query(
        `insert into members (workspace_id, id, identity_id, role, created_at, updated_at)
         values ($1, $2, $3, $4, $5, $6)`,
        [m.workspace_id, m.id, m.identity_id, m.role, m.created_at, m.updated_at],
      );
      await insertApiKey(tx, b.apiKey);
      return "ok";
    });
  }

  async getBySlug(slug: string): Promise<Workspace | null> {
    const rows = await this.db.query<Row>(`select ${workspaceColumns("w")} from workspaces w where w.slug = $1`, [slug]);
    return rows[0] ? toWorkspace(rows[0]) : null;
  }

  async getById(workspaceId: string): Promise<Workspace | null> {
    if (!isUuid(workspaceId)) return null;
    const rows = await this.db.query<Row>(`select ${workspaceColumns("w")} from workspaces w where w.id = $1`, [workspaceId]);
    return rows[0] ? toWorkspace(rows[0]) : null;
  }

  async list(filter: WorkspaceFilter, p: OffsetPage): Promise<Listed<Workspace>> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.plan) {
      params.push(filter.plan);
      where.push(`w.plan = $${params.length}`);
    }
    if (filter.q) {
      params.push(`%${filter.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
      where.push(`(w.slug ilike $${params.length} or w.name ilike $${params.length})`);
    }
    const cond = where.length > 0 ? `where ${where.join(" and ")}` : "";
    const [rows, total] = await Promise.all([
      this.db.query<Row>(
        `select ${workspaceColumns("w")} from workspaces w ${cond}
         order by w.created_at desc, w.id desc limit $${params.length + 1} offset $${params.length + 2}`,
        [...params, p.limit, p.offset],
      ),
      this.db.query<{ n: string | number }>(`select count(*) as n from workspaces w ${cond}`, params),
    ]);
    return { items: rows.map((r) => toWorkspace(r)), total: Number(total[0]?.n ?? 0) };
  }

  async update(w: Workspace): Promise<void> {
    if (!isUuid(w.id)) return;
    await this.db.query(
      `update workspaces set name = $2, plan = $3, settings = $4, updated_at = $5 where id = $1`,
      [w.id, w.name, w.plan, w.settings, w.updated_at],
    );
  }

  async delete(workspaceId: string): Promise<boolean> {
    if (!isUuid(workspaceId)) return false;
    // Every module's rows go with it in this one statement: each tenant table's foreign key to
    // workspaces cascades (bundle.ts).
    const rows = await this.db.query(`delete from workspaces where id = $1 returning id`, [workspaceId]);
    return rows.length > 0;
  }

  async counts(workspaceId: string): Promise<WorkspaceCounts> {
    if (!isUuid(workspaceId)) return { members: 0, api_keys: 0, areas: 0, repos: 0 };
    const rows = await this.db.query<WorkspaceCounts>(
      `select
         (select count(*)::int from members where workspace_id = $1) as members,
         (select count(*)::int from api_keys where workspace_id = $1) as api_keys,
         (select count(*)::int from areas where workspace_id = $1) as areas,
         (select count(*)::int from repos where workspace_id = $1) as repos`,
      [workspaceId],
    );
    const r = rows[0];
    return {
      members: Number(r?.members ?? 0),
      api_keys: Number(r?.api_keys ?? 0),
      areas: Number(r?.areas ?? 0),
      repos: Number(r?.repos ?? 0),
    };
  }
}
