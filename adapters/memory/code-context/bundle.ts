import type { CodeContextStores } from "../../../core/code-context/ports.ts";
import type { WorkspaceTables } from "../workspaces/mod.ts";
import type { TopicTables } from "../topics/mod.ts";
import { MemoryAnchorIndexStore } from "./anchor-index-store.ts";
import { dropWorkspaceRows, type MemoryBundle } from "../bundle.ts";
import { MemoryRepoIndexStore } from "./repo-index-store.ts";
import { MemoryRetrievalLedger } from "./retrieval-ledger.ts";
import type { CodeContextTables } from "./tables.ts";
import { MemoryTopicHeadStore } from "./topic-head-store.ts";
import { memoryCodeContextTransfer } from "./transfer.ts";

export function memoryCodeContextBundle(t: CodeContextTables & WorkspaceTables & TopicTables): MemoryBundle<CodeContextStores> {
  return {
    stores: {
      repoIndex: new MemoryRepoIndexStore(t),
      retrievals: new MemoryRetrievalLedger(t),
      anchorIndex: new MemoryAnchorIndexStore(t),
      topicHeads: new MemoryTopicHeadStore(t),
    },
    transfer: memoryCodeContextTransfer(t),
    purgeWorkspace: (id) => dropWorkspaceRows(id, t.repoIndexes, t.deliveries),
  };
}
