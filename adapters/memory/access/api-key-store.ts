import type { WorkspaceTables } from "../workspaces/mod.ts";
import type { AccessTables } from "./tables.ts";
import type { ApiKeyRecord } from "../../../core/access/model.ts";
import type { ApiKeyStore, KeyMatch } from "../../../core/access/ports.ts";
import type { OffsetPage } from "../../../core/kernel/paging.ts";
import type { Listed } from "../../../core/workspaces/ports.ts";
import { byCreated, copy, inWorkspace, page } from "../rows.ts";

export class MemoryApiKeyStore implements ApiKeyStore {
  constructor(private t: WorkspaceTables & AccessTables) {}

  async insert(key: ApiKeyRecord): Promise<void> {
    this.t.apiKeys.set(key.id, copy(key));
    this.t.apiKeyIdByHash.set(key.key_hash, key.id);
  }

  async findByHash(keyHash: string): Promise<KeyMatch | null> {
    const t = this.t;
    const id = t.apiKeyIdByHash.get(keyHash);
    const key = id ? t.apiKeys.get(id) : undefined;
    if (!key) return null;
    const workspace = t.workspaces.get(key.workspace_id);
    if (!workspace) return null;
    const member = key.identity_id ? inWorkspace(t.members, key.workspace_id).find((m) => m.identity_id === key.identity_id) ?? null : null;
    return { key: copy(key), workspace: copy(workspace), member: member ? copy(member) : null };
  }

  async list(workspaceId: string, p: OffsetPage, identityId?: string | null, keyId?: string): Promise<Listed<ApiKeyRecord>> {
    const rows = inWorkspace(this.t.apiKeys, workspaceId)
      .filter((k) => (identityId === undefined || k.identity_id === identityId) && (keyId === undefined || k.id === keyId))
      .sort(byCreated)
      .reverse();
    return page(rows, p.offset, p.limit);
  }

  async revoke(workspaceId: string, keyId: string): Promise<boolean> {
    const k = this.t.apiKeys.get(keyId);
    if (!k || k.workspace_id !== workspaceId) return false;
    this.t.apiKeys.delete(keyId);
    this.t.apiKeyIdByHash.delete(k.key_hash);
    return true;
  }

  async touch(workspaceId: string, keyId: string, at: string): Promise<void> {
    const k = this.t.apiKeys.get(keyId);
    if (!k || k.workspace_id !== workspaceId) return;
    if (k.last_used_at === null || k.last_used_at < at) k.last_used_at = at;
  }
}
