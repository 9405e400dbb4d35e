import type { TopicStores } from "../../../core/topics/ports.ts";
import type { TopicCollections } from "./collections.ts";
import type { SharingCollections } from "../sharing/mod.ts";
import { deleteWorkspaceDocs, type MongoBundle } from "../bundle.ts";
import type { MongoStoreOptions } from "../options.ts";
import { MongoTopicStore } from "./topic-store.ts";
import { MongoTagStore } from "./tag-store.ts";
import { MongoProposalStore } from "./proposal-store.ts";
import { MongoRelationStore } from "./relation-store.ts";
import { mongoTopicTransfer } from "./transfer.ts";

export function mongoTopicBundle(c: TopicCollections & SharingCollections, o: MongoStoreOptions): MongoBundle<TopicStores> {
  const topics = new MongoTopicStore(c);
  return {
    stores: {
      topics,
      tags: new MongoTagStore(c, topics, o),
      proposals: new MongoProposalStore(c),
      relations: new MongoRelationStore(c),
    },
    transfer: mongoTopicTransfer(c, topics),
    purgeWorkspace: (id) =>
      deleteWorkspaceDocs(
        id,
        c.topics,
        c.topicEvents,
        c.topicRedirects,
        c.tags,
        c.topicProposals,
        c.topicProposalDecisions,
        c.topicRelations,
        c.topicRelationMarkers,
      ),
  };
}
