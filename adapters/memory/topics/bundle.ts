import type { TopicStores } from "../../../core/topics/ports.ts";
import type { SharingTables } from "../sharing/mod.ts";
import { dropWorkspaceKeys, dropWorkspaceRows, type MemoryBundle } from "../bundle.ts";
import { MemoryProposalStore } from "./proposal-store.ts";
import { MemoryRelationStore } from "./relation-store.ts";
import type { TopicTables } from "./tables.ts";
import { MemoryTagStore } from "./tag-store.ts";
import { MemoryTopicStore } from "./topic-store.ts";
import { MemoryTopicImportStore } from "./import-store.ts";
import { memoryTopicTransfer } from "./transfer.ts";

export function memoryTopicBundle(t: TopicTables & SharingTables): MemoryBundle<TopicStores> {
  return {
    stores: {
      topics: new MemoryTopicStore(t),
      tags: new MemoryTagStore(t),
      proposals: new MemoryProposalStore(t),
      relations: new MemoryRelationStore(t),
      topicImports: new MemoryTopicImportStore(t),
    },
    transfer: memoryTopicTransfer(t),
    purgeWorkspace(id) {
      dropWorkspaceRows(id, t.proposals, t.relations, t.topicEvents, t.topics);
      dropWorkspaceKeys(id, t.topicRedirects, t.tags);
      t.relationMarkers.delete(id);
      t.anchorVersions.delete(id);
    },
  };
}
