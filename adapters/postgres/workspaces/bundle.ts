import type { WorkspaceStores } from "../../../core/workspaces/ports.ts";
import type { SqlBundle } from "../bundle.ts";
import type { SqlDriver } from "../driver.ts";
import { PostgresWorkspaceStore } from "./workspace-store.ts";
import { PostgresIdentityStore } from "./identity-store.ts";
import { PostgresMemberStore } from "./member-store.ts";
import { PostgresAreaStore } from "./area-store.ts";
import { PostgresRepoStore } from "./repo-store.ts";
import { sqlWorkspaceTransfer } from "./transfer.ts";

export function sqlWorkspaceBundle(driver: SqlDriver): SqlBundle<WorkspaceStores> {
  return {
    stores: {
      workspaces: new PostgresWorkspaceStore(driver),
      identities: new PostgresIdentityStore(driver),
      members: new PostgresMemberStore(driver),
      areas: new PostgresAreaStore(driver),
      repos: new PostgresRepoStore(driver),
    },
    transfer: sqlWorkspaceTransfer(driver),
  };
}
