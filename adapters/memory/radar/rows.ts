import { copy } from "../rows.ts";

/** The row when it is the workspace's, as a copy (a caller never holds a stored object); else null. */
export const mine = <T extends { workspace_id: string }>(row: T | undefined, workspaceId: string): T | null =>
  row && row.workspace_id === workspaceId ? copy(row) : null;
