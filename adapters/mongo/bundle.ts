import type { StoreBundle } from "../store-bundle.ts";

/** A module's part of the MongoDB adapter. */
export interface MongoBundle<S> extends StoreBundle<S> {
  /**
   * Deletes the workspace's documents of this module. Run after the workspace document is gone
   * (readers no longer see the workspace), and again by the next delete if a crash cut it short:
   * deletes by `workspace_id` are idempotent (workspaces/workspace-store.ts, ADR 005).
   */
  purgeWorkspace(workspaceId: string): Promise<void>;
}

/** A collection of tenant documents, as far as a purge needs it. */
interface TenantCollection {
  deleteMany(filter: { workspace_id: string }): Promise<unknown>;
}

/** Deletes every document of `workspaceId` from each collection (each served by an index that starts with `workspace_id`). */
export async function deleteWorkspaceDocs(workspaceId: string, ...collections: TenantCollection[]): Promise<void> {
  await Promise.all(collections.map((c) => c.deleteMany({ workspace_id: workspaceId })));
}
