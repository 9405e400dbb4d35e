import type { StoreBundle } from "../store-bundle.ts";

/** A module's part of the memory adapter. */
export interface MemoryBundle<S> extends StoreBundle<S> {
  /**
   * Drops the workspace's rows of this module. Synchronous, so deleting a workspace (every
   * bundle's purge, then the workspace) runs without a gap, atomic as every memory store method.
   */
  purgeWorkspace(workspaceId: string): void;
}

/** Deletes the rows of `workspaceId` from each table. */
export function dropWorkspaceRows(workspaceId: string, ...tables: Map<string, { workspace_id: string }>[]): void {
  for (const table of tables) for (const [key, row] of table) if (row.workspace_id === workspaceId) table.delete(key);
}

/** Deletes the keys `<workspaceId>:…` of each table. */
export function dropWorkspaceKeys(workspaceId: string, ...tables: Map<string, unknown>[]): void {
  for (const table of tables) for (const key of table.keys()) if (key.startsWith(`${workspaceId}:`)) table.delete(key);
}
