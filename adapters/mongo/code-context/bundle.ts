import type { CodeContextStores } from "../../../core/code-context/ports.ts";
import type { WorkspaceCollections } from "../workspaces/mod.ts";
import type { CodeContextCollections } from "./collections.ts";
import type { TopicCollections } from "../topics/mod.ts";
import { deleteWorkspaceDocs, type MongoBundle } from "../bundle.ts";
import { MongoAnchorIndexStore } from "./anchor-index-store.ts";
import { MongoRepoIndexStore } from "./repo-index-store.ts";
import { MongoRetrievalLedger } from "./retrieval-ledger.ts";
import { MongoTopicHeadStore } from "./topic-head-store.ts";
import { mongoCodeContextTransfer } from "./transfer.ts";

export function mongoCodeContextBundle(
  c: WorkspaceCollections & CodeContextCollections & TopicCollections,
): MongoBundle<CodeContextStores> {
  return {
    stores: {
      repoIndex: new MongoRepoIndexStore(c),
      retrievals: new MongoRetrievalLedger(c),
      anchorIndex: new MongoAnchorIndexStore(c),
      topicHeads: new MongoTopicHeadStore(c),
    },
    transfer: mongoCodeContextTransfer(c),
    purgeWorkspace: (id) => deleteWorkspaceDocs(id, c.repoIndexes, c.retrievalDeliveries),
  };
}
