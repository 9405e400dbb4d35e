import type { CodeContextStores } from "../../../core/code-context/ports.ts";
import type { SqlBundle } from "../bundle.ts";
import type { SqlDriver } from "../driver.ts";
import { PostgresAnchorIndexStore } from "./anchor-index-store.ts";
import { PostgresRepoIndexStore } from "./repo-index-store.ts";
import { PostgresRetrievalLedger } from "./retrieval-ledger.ts";
import { PostgresTopicHeadStore } from "./topic-head-store.ts";
import { sqlCodeContextTransfer } from "./transfer.ts";

export function sqlCodeContextBundle(driver: SqlDriver): SqlBundle<CodeContextStores> {
  return {
    stores: {
      repoIndex: new PostgresRepoIndexStore(driver),
      retrievals: new PostgresRetrievalLedger(driver),
      anchorIndex: new PostgresAnchorIndexStore(driver),
      topicHeads: new PostgresTopicHeadStore(driver),
    },
    transfer: sqlCodeContextTransfer(driver),
  };
}
