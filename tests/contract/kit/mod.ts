/**
 * The contract kit: the store suites every adapter of core must pass, for an embedding app's own
 * adapters as for ours (docs/decisions/017-contract-kit.md). Under Bun:
 *
 *   import * as bunTest from "bun:test";
 *   runStoreContracts("mine", async () => openMyStores(), { api: bunTest });
 *
 * under Deno (`deno test`): the same with `{ api: denoTestApi() }`. Nothing here imports a
 * runtime's API: the test API is injected. The ports that are not stores have a suite each,
 * called on its own: `runEventBusContract(name, makePair, api)`, and so on.
 */
export { runStoreContracts, type StoreContractOptions, type StoreSuite, storeSuiteIds, storeSuites } from "./store-contracts.ts";
export type { Skips } from "./skips.ts";
export type { Expect, Matchers, TestApi, TestFn } from "./test-api.ts";
export { denoTestApi } from "./deno-test-api.ts";
export { expect } from "./expect.ts";
export { runCodeIndexStoresContract } from "../code-index-stores.contract.ts";
export { runCollectionStoresContract } from "../collection-stores.contract.ts";
export { runRecordRollupStoresContract } from "../record-rollup-stores.contract.ts";
export { runRecordImportStoresContract } from "../record-import-stores.contract.ts";
export { runProposalRelationStoresContract } from "../proposal-relation-stores.contract.ts";
export { runShareStoresContract } from "../share-stores.contract.ts";
export { runTopicStoresContract } from "../topic-stores.contract.ts";
export { runWorkspaceStoresContract } from "../workspace-stores.contract.ts";
export { type EventBusPair, runEventBusContract } from "../event-bus.contract.ts";
export { runJobQueueContract } from "../job-queue.contract.ts";
export { runRateCounterContract } from "../rate-counter.contract.ts";
export { type ProspectFixtures, runProspectDirectoryContract, SAMPLE_FIXTURES } from "../prospect-directory.contract.ts";
