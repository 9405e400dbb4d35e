import type { CodeContextStores } from "../../../core/code-context/ports.ts";
import type { WorkspaceTables } from "../workspaces/tables.ts";
import { dropWorkspaceRows, type MemoryBundle } from "../bundle.ts";
import { MemoryRepoIndexStore } from "./repo-index-store.ts";
import { MemoryRetrievalLedger } from "./retrieval-ledger.ts";
import type { CodeContextTables } from "./tables.ts";

export function memoryCodeContextBundle(t: CodeContextTables & WorkspaceTables): MemoryBundle<CodeContextStores> {
  return {
    stores: { repoIndex: new MemoryRepoIndexStore(t), retrievals: new MemoryRetrievalLedger(t) },
    purgeWorkspace: (id) => dropWorkspaceRows(id, t.repoIndexes, t.deliveries),
  };
}
