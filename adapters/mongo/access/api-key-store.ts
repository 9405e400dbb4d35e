import { isComplete, latestRoster, toMember, toWorkspace, type WorkspaceCollections } from "../workspaces/mod.ts";
import type { AccessCollections } from "./collections.ts";
import type { ApiKeyRecord } from "../../../core/access/model.ts";
import type { ApiKeyStore, KeyMatch } from "../../../core/access/ports.ts";
import type { OffsetPage } from "../../../core/kernel/paging.ts";
import type { Listed } from "../../../core/workspaces/ports.ts";
import { apiKeyDoc, toApiKey } from "./documents.ts";
import { listPage } from "../list-page.ts";

export class MongoApiKeyStore implements ApiKeyStore {
  constructor(private readonly c: WorkspaceCollections & AccessCollections) {}

  async insert(key: ApiKeyRecord): Promise<void> {
    await this.c.apiKeys.insertOne(apiKeyDoc(key));
  }

  /**
   * The authentication lookup: the key by its unique hash; then, at once, its workspace by `_id`,
   * the membership of the key's identity by the (workspace_id, identity_id) unique index, and the
   * workspace's roster (owners, removals in flight) by its newest version. Two round trips (no
   * `$lookup` on the FerretDB test server), four index probes.
   */
  async findByHash(keyHash: string): Promise<KeyMatch | null> {
    const key = await this.c.apiKeys.findOne({ key_hash: keyHash });
    if (!key) return null;
    const [ws, member, roster] = await Promise.all([
      this.c.workspaces.findOne({ _id: key.workspace_id }),
      key.identity_id === null
        ? Promise.resolve(null)
        : this.c.members.findOne({ workspace_id: key.workspace_id, identity_id: key.identity_id }),
      latestRoster(this.c, key.workspace_id),
    ]);
    if (!ws || !isComplete(ws, roster)) return null;
    // A member whose removal is committed no longer acts in the workspace, even before its keys are deleted.
    const current = member && !roster?.removing.includes(member._id) ? toMember(member, roster?.owner_ids) : null;
    return { key: toApiKey(key), workspace: toWorkspace(ws), member: current };
  }

  list(workspaceId: string, page: OffsetPage, identityId?: string | null, keyId?: string): Promise<Listed<ApiKeyRecord>> {
    const filter: Record<string, unknown> = { workspace_id: workspaceId };
    // null narrows to service keys (stored with identity_id: null), a string to that identity's keys.
    if (identityId !== undefined) filter.identity_id = identityId;
    if (keyId !== undefined) filter._id = keyId;
    return listPage(this.c.apiKeys, filter, { created_at: -1, _id: -1 }, page, toApiKey);
  }

  async revoke(workspaceId: string, keyId: string): Promise<boolean> {
    const r = await this.c.apiKeys.deleteOne({ _id: keyId, workspace_id: workspaceId });
    return r.deletedCount === 1;
  }

  async touch(workspaceId: string, keyId: string, at: string): Promise<void> {
    // Only forwards: a late, older touch never overwrites a newer one.
    await this.c.apiKeys.updateOne(
      { _id: keyId, workspace_id: workspaceId, $or: [{ last_used_at: null }, { last_used_at: { $lt: at } }] },
      { $set: { last_used_at: at } },
    );
  }
}
