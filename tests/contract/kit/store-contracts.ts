import type { Stores } from "../../../core/stores.ts";
import { runAnchorIndexStoresContract } from "../anchor-index-stores.contract.ts";
import { runBillingStoresContract } from "../billing-stores.contract.ts";
import { runCodeIndexStoresContract } from "../code-index-stores.contract.ts";
import { runCollectionStoresContract } from "../collection-stores.contract.ts";
import { runContactStoresContract } from "../contact-stores.contract.ts";
import { runCreditStoresContract } from "../credit-stores.contract.ts";
import { runIdentityStoresContract } from "../identity-stores.contract.ts";
import { runMailStoresContract } from "../mail-stores.contract.ts";
import { runOfferStoresContract } from "../offer-stores.contract.ts";
import { runRadarStoresContract } from "../radar-stores.contract.ts";
import { runRecordImportStoresContract } from "../record-import-stores.contract.ts";
import { runRecordRollupStoresContract } from "../record-rollup-stores.contract.ts";
import { runProposalRelationStoresContract } from "../proposal-relation-stores.contract.ts";
import { runShareStoresContract } from "../share-stores.contract.ts";
import { runSupportStoresContract } from "../support-desk-stores.contract.ts";
import { runTopicHeadStoresContract } from "../topic-head-stores.contract.ts";
import { runTopicStoresContract } from "../topic-stores.contract.ts";
import { runTopicImportStoreContract } from "../topic-import-store.contract.ts";
import { runWebhookStoresContract } from "../webhook-stores.contract.ts";
import { runWorkspaceStoresContract } from "../workspace-stores.contract.ts";
import { runTransferStoresContract } from "../transfer-stores.contract.ts";
import { SkipList, type Skips } from "./skips.ts";
import type { TestApi } from "./test-api.ts";

/**
 * The store suites, by id, in the order they run. A new module's suite is added here, and every
 * adapter's runner picks it up.
 */
export const storeSuites = {
  workspaces: runWorkspaceStoresContract,
  topics: runTopicStoresContract,
  codeIndex: runCodeIndexStoresContract,
  anchorIndex: runAnchorIndexStoresContract,
  topicHeads: runTopicHeadStoresContract,
  proposalsRelations: runProposalRelationStoresContract,
  topicImports: runTopicImportStoreContract,
  sharing: runShareStoresContract,
  collections: runCollectionStoresContract,
  rollups: runRecordRollupStoresContract,
  recordImports: runRecordImportStoresContract,
  credits: runCreditStoresContract,
  radar: runRadarStoresContract,
  contacts: runContactStoresContract,
  identity: runIdentityStoresContract,
  mail: runMailStoresContract,
  billing: runBillingStoresContract,
  support: runSupportStoresContract,
  offers: runOfferStoresContract,
  webhooks: runWebhookStoresContract,
  /** Calls `open` twice: a source and a fresh target. */
  transfer: runTransferStoresContract,
} as const;

export type StoreSuite = keyof typeof storeSuites;
export const storeSuiteIds = Object.keys(storeSuites) as StoreSuite[];

export interface StoreContractOptions {
  /** The test API to register the suites with: `bun:test`, `denoTestApi()`, or your own. */
  api: TestApi;
  /** Suite ids or test titles not to run, each with the reason (printed). */
  skip?: Skips;
}

/**
 * Runs every store suite against an adapter. `open` gives each suite a store of its own (called
 * once per suite, before its first test; the suite closes it after its last). Each suite makes
 * its own workspaces, so a store may be shared between suites if opening one is costly.
 */
export function runStoreContracts(name: string, open: (suite: StoreSuite) => Promise<Stores>, options: StoreContractOptions): void {
  const skips = new SkipList(name, options.skip ?? {});
  for (const suite of storeSuiteIds) storeSuites[suite](name, () => open(suite), skips.apiFor(suite, options.api));
  skips.registerStaleCheck(options.api, storeSuiteIds);
}
