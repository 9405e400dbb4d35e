import type { TopicStores } from "../../../core/topics/ports.ts";
import type { SqlBundle } from "../bundle.ts";
import type { SqlDriver } from "../driver.ts";
import { PostgresTopicStore } from "./topic-store.ts";
import { PostgresTopicVersions } from "./topic-versions.ts";
import { cachingTopicStore } from "../../../core/topics/topic-read-cache.ts";
import { PostgresTagStore } from "./tag-store.ts";
import { PostgresProposalStore } from "./proposal-store.ts";
import { PostgresRelationStore } from "./relation-store.ts";

export function sqlTopicBundle(driver: SqlDriver): SqlBundle<TopicStores> {
  return {
    stores: {
      // Tag pages and searches kept in memory under the workspace's topic version (ADR 047).
      topics: cachingTopicStore(new PostgresTopicStore(driver), new PostgresTopicVersions(driver)),
      tags: new PostgresTagStore(driver),
      proposals: new PostgresProposalStore(driver),
      relations: new PostgresRelationStore(driver),
    },
  };
}
