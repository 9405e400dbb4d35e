import type { OffsetPage } from "../kernel/paging.ts";
import type { Listed } from "../workspaces/ports.ts";
import type { Member, Workspace } from "../workspaces/model.ts";
import type { ApiKeyRecord } from "./api-key.ts";

export interface KeyMatch {
  key: ApiKeyRecord;
  workspace: Workspace;
  /** The membership of the key's identity in the key's workspace; null for a service key or a former member. */
  member: Member | null;
}

export interface ApiKeyStore {
  insert(key: ApiKeyRecord): Promise<void>;
  /** One indexed lookup by hash that returns everything authentication needs. */
  findByHash(keyHash: string): Promise<KeyMatch | null>;
  /**
   * Newest first. `identityId` narrows to the keys acting as that identity (`null`: to faceless
   * service keys; omitted: no narrowing); `keyId` narrows to one key.
   */
  list(workspaceId: string, page: OffsetPage, identityId?: string | null, keyId?: string): Promise<Listed<ApiKeyRecord>>;
  /** Deletes the key; it stops authenticating at once. */
  revoke(workspaceId: string, keyId: string): Promise<boolean>;
  /** Sets last_used_at. Adapters may skip the write when the stored value is already newer. */
  touch(workspaceId: string, keyId: string, at: string): Promise<void>;
}
