import type { RepoIndex } from "../../../core/code-context/ports.ts";

/** The in-memory tables of code-context (the adapter's composition shares one object of every module's tables). */
export class CodeContextTables {
  /** repo id → its file index. */
  repoIndexes = new Map<string, RepoIndex>();
  /** Retrieval deliveries by workspace, session and topic. */
  deliveries = new Map<string, { workspace_id: string; version: number; at: string }>();
}
