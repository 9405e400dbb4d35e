import type { TopicStores } from "../../../core/topics/ports.ts";
import type { SqlBundle } from "../bundle.ts";
import type { SqlDriver } from "../driver.ts";
import { PostgresTopicStore } from "./topic-store.ts";
import { PostgresTagStore } from "./tag-store.ts";
import { PostgresProposalStore } from "./proposal-store.ts";
import { PostgresRelationStore } from "./relation-store.ts";

export function sqlTopicBundle(driver: SqlDriver): SqlBundle<TopicStores> {
  return {
    stores: {
      topics: new PostgresTopicStore(driver),
      tags: new PostgresTagStore(driver),
      proposals: new PostgresProposalStore(driver),
      relations: new PostgresRelationStore(driver),
    },
  };
}
