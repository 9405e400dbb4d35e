import type { TopicStores } from "../../../core/topics/ports.ts";
import type { SqlBundle } from "../bundle.ts";
import type { SqlDriver } from "../driver.ts";
import { PostgresTopicStore } from "./topic-store.ts";
import { PostgresTopicVersions } from "./topic-versions.ts";
import { cachingTopicStore, TopicReadCache, type TopicReadCacheLimits } from "../../../core/topics/topic-read-cache.ts";
import { PostgresTagStore } from "./tag-store.ts";
import { PostgresProposalStore } from "./proposal-store.ts";
import { PostgresRelationStore } from "./relation-store.ts";
import { PostgresTopicImportStore } from "./import-store.ts";
import { sqlTopicTransfer } from "./transfer.ts";

export function sqlTopicBundle(driver: SqlDriver, cache: TopicReadCacheLimits | false = {}): SqlBundle<TopicStores> {
  const topics = new PostgresTopicStore(driver);
  return {
    stores: {
      // Tag pages and searches kept in memory under the workspace's topic version (ADR 047).
      topics: cache === false ? topics : cachingTopicStore(topics, new PostgresTopicVersions(driver), new TopicReadCache(cache)),
      tags: new PostgresTagStore(driver),
      proposals: new PostgresProposalStore(driver),
      relations: new PostgresRelationStore(driver),
      topicImports: new PostgresTopicImportStore(driver),
    },
    transfer: sqlTopicTransfer(driver),
  };
}
