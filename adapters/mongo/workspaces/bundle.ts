import type { WorkspaceStores } from "../../../core/workspaces/ports.ts";
import type { WorkspaceCollections } from "./collections.ts";
import type { AccessCollections } from "../access/mod.ts";
import type { CodeContextCollections } from "../code-context/mod.ts";
import type { SharingCollections } from "../sharing/mod.ts";
import { deleteWorkspaceDocs, type MongoBundle } from "../bundle.ts";
import type { MongoStoreOptions } from "../options.ts";
import { MongoWorkspaceStore } from "./workspace-store.ts";
import { MongoIdentityStore } from "./identity-store.ts";
import { MongoMemberStore } from "./member-store.ts";
import { MongoAreaStore } from "./area-store.ts";
import { MongoRepoStore } from "./repo-store.ts";
import { mongoWorkspaceTransfer } from "./transfer.ts";

/**
 * Workspaces' stores. `purgeTenant` runs every bundle's purge (mod.ts): deleting a workspace takes
 * every module's documents with it. Identities are people, not tenant data: they stay; the roster
 * goes last, after every purge (workspace-store.ts).
 */
export function mongoWorkspaceBundle(
  c: WorkspaceCollections & AccessCollections & CodeContextCollections & SharingCollections,
  o: MongoStoreOptions,
  purgeTenant: (workspaceId: string) => Promise<void>,
): MongoBundle<WorkspaceStores> {
  return {
    stores: {
      workspaces: new MongoWorkspaceStore(c, o, purgeTenant),
      identities: new MongoIdentityStore(c),
      members: new MongoMemberStore(c, o),
      areas: new MongoAreaStore(c),
      repos: new MongoRepoStore(c),
    },
    purgeWorkspace: (id) => deleteWorkspaceDocs(id, c.members, c.areas, c.repos),
    transfer: mongoWorkspaceTransfer(c, o),
  };
}
