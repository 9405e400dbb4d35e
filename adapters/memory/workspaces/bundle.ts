import type { WorkspaceStores } from "../../../core/workspaces/ports.ts";
import type { AccessTables } from "../access/mod.ts";
import type { SharingTables } from "../sharing/mod.ts";
import { dropWorkspaceRows, type MemoryBundle } from "../bundle.ts";
import { MemoryAreaStore } from "./area-store.ts";
import { MemoryIdentityStore } from "./identity-store.ts";
import { MemoryMemberStore } from "./member-store.ts";
import { MemoryRepoStore } from "./repo-store.ts";
import type { WorkspaceTables } from "./tables.ts";
import { MemoryWorkspaceStore } from "./workspace-store.ts";
import { memoryWorkspaceTransfer } from "./transfer.ts";
import type { CodeContextTables } from "../code-context/mod.ts";

/**
 * Workspaces' stores. `purgeTenant` runs every bundle's purge (mod.ts): deleting a workspace
 * takes every module's data with it. Identities are people, not tenant data: they stay.
 */
export function memoryWorkspaceBundle(
  t: WorkspaceTables & AccessTables & SharingTables & CodeContextTables,
  purgeTenant: (workspaceId: string) => void,
): MemoryBundle<WorkspaceStores> {
  return {
    stores: {
      workspaces: new MemoryWorkspaceStore(t, purgeTenant),
      identities: new MemoryIdentityStore(t),
      members: new MemoryMemberStore(t),
      areas: new MemoryAreaStore(t),
      repos: new MemoryRepoStore(t),
    },
    purgeWorkspace: (id) => dropWorkspaceRows(id, t.members, t.areas, t.repos),
    transfer: memoryWorkspaceTransfer(t),
  };
}
