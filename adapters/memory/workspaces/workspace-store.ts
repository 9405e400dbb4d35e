import type { WorkspaceTables } from "./tables.ts";
import type { AccessTables } from "../access/mod.ts";
import type { BootstrapBundle, Listed, WorkspaceFilter, WorkspaceStore } from "../../../core/workspaces/ports.ts";
import type { OffsetPage } from "../../../core/kernel/paging.ts";
import type { Workspace } from "../../../core/workspaces/model.ts";
import type { WorkspaceCounts } from "../../../core/workspaces/dto.ts";
import { byCreated, copy, inWorkspace, page } from "../rows.ts";

export class MemoryWorkspaceStore implements WorkspaceStore {
  constructor(
    private t: WorkspaceTables & AccessTables,
    /** Every bundle's purge of a workspace's rows (mod.ts), this module's members, areas and repos included. */
    private purgeTenant: (workspaceId: string) => void,
  ) {}

  async bootstrap(b: BootstrapBundle): Promise<"ok" | "slug_taken" | "email_taken"> {
    const t = this.t;
    if (t.workspaceIdBySlug.has(b.workspace.slug)) return "slug_taken";
    if (b.owner.isNew && t.identityIdByEmail.has(b.owner.identity.email)) return "email_taken";
    if (b.owner.isNew) {
      t.identities.set(b.owner.identity.id, copy(b.owner.identity));
      t.identityIdByEmail.set(b.owner.identity.email, b.owner.identity.id);
    }
    t.workspaces.set(b.workspace.id, copy(b.workspace));
    t.workspaceIdBySlug.set(b.workspace.slug, b.workspace.id);
    t.members.set(b.member.id, copy(b.member));
    t.apiKeys.set(b.apiKey.id, copy(b.apiKey));
    t.apiKeyIdByHash.set(b.apiKey.key_hash, b.apiKey.id);
    return "ok";
  }

  async getBySlug(slug: string): Promise<Workspace | null> {
    const id = this.t.workspaceIdBySlug.get(slug);
    const ws = id ? this.t.workspaces.get(id) : undefined;
    return ws ? copy(ws) : null;
  }

  async getById(workspaceId: string): Promise<Workspace | null> {
    const ws = this.t.workspaces.get(workspaceId);
    return ws ? copy(ws) : null;
  }

  async list(filter: WorkspaceFilter, p: OffsetPage): Promise<Listed<Workspace>> {
    const q = filter.q?.toLowerCase();
    const rows = [...this.t.workspaces.values()]
      .filter((w) =>
        (!filter.plan || w.plan === filter.plan) && (!q || w.slug.toLowerCase().includes(q) || w.name.toLowerCase().includes(q))
      )
      .sort((a, b) => byCreated(b, a));
    return page(rows, p.offset, p.limit);
  }

  async update(ws: Workspace): Promise<void> {
    const current = this.t.workspaces.get(ws.id);
    if (!current) return;
    this.t.workspaces.set(ws.id, { ...current, name: ws.name, plan: ws.plan, settings: copy(ws.settings), updated_at: ws.updated_at });
  }

  async delete(workspaceId: string): Promise<boolean> {
    const ws = this.t.workspaces.get(workspaceId);
    if (!ws) return false;
    this.purgeTenant(workspaceId);
    this.t.workspaces.delete(workspaceId);
    this.t.workspaceIdBySlug.delete(ws.slug);
    return true;
  }

  async counts(workspaceId: string): Promise<WorkspaceCounts> {
    const t = this.t;
    return {
      members: inWorkspace(t.members, workspaceId).length,
      api_keys: inWorkspace(t.apiKeys, workspaceId).length,
      areas: inWorkspace(t.areas, workspaceId).length,
      repos: inWorkspace(t.repos, workspaceId).length,
    };
  }
}
