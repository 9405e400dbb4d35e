import type { BootstrapBundle, WorkspaceStore } from "../../../core/workspaces/ports.ts";
import type { Workspace } from "../../../core/workspaces/model.ts";
import type { WorkspaceCounts } from "../../../core/workspaces/dto.ts";
import { copy, inWorkspace, type MemoryTables } from "../tables.ts";
import { dropWorkspaceShares } from "../sharing/cascades.ts";

export class MemoryWorkspaceStore implements WorkspaceStore {
  constructor(private t: MemoryTables) {}

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

  async update(ws: Workspace): Promise<void> {
    const current = this.t.workspaces.get(ws.id);
    if (!current) return;
    this.t.workspaces.set(ws.id, { ...current, name: ws.name, plan: ws.plan, settings: copy(ws.settings), updated_at: ws.updated_at });
  }

  async delete(workspaceId: string): Promise<boolean> {
    const t = this.t;
    const ws = t.workspaces.get(workspaceId);
    if (!ws) return false;
    for (const k of inWorkspace(t.apiKeys, workspaceId)) {
      t.apiKeys.delete(k.id);
      t.apiKeyIdByHash.delete(k.key_hash);
    }
    for (const table of [t.members, t.areas, t.repos] as Map<string, { id: string; workspace_id: string }>[]) {
      for (const row of inWorkspace(table, workspaceId)) table.delete(row.id);
    }
    for (const index of inWorkspace(t.repoIndexes, workspaceId)) t.repoIndexes.delete(index.repo_id);
    dropWorkspaceShares(t, workspaceId);
    for (const table of [t.proposals, t.relations, t.collections, t.records, t.recordChanges, t.entities] as Map<string, { id: string; workspace_id: string }>[]) {
      for (const row of inWorkspace(table, workspaceId)) table.delete(row.id);
    }
    t.relationMarkers.delete(workspaceId);
    for (const [k, d] of t.deliveries) if (d.workspace_id === workspaceId) t.deliveries.delete(k);
    for (const e of inWorkspace(t.topicEvents, workspaceId)) t.topicEvents.delete(e.id);
    for (const topic of inWorkspace(t.topics, workspaceId)) t.topics.delete(topic.id);
    for (const table of [t.topicRedirects, t.tags, t.entityIdByKey] as Map<string, unknown>[]) {
      for (const key of table.keys()) if (key.startsWith(`${workspaceId}:`)) table.delete(key);
    }
    t.workspaces.delete(workspaceId);
    t.workspaceIdBySlug.delete(ws.slug);
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
