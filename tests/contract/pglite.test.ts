import { openPgliteStores } from "../../adapters/postgres/mod.ts";
import { runCollectionStoresContract } from "./collection-stores.contract.ts";
import { runShareStoresContract } from "./share-stores.contract.ts";
import { runCodeIndexStoresContract } from "./code-index-stores.contract.ts";
import { runTopicStoresContract } from "./topic-stores.contract.ts";
import { runProposalRelationStoresContract } from "./proposal-relation-stores.contract.ts";
import { runWorkspaceStoresContract } from "./workspace-stores.contract.ts";

// Opened at load, not in the suites' hooks: PGlite's start-up (seconds under load, with its
// btree_gin extension) can outlast a hook's timeout. Each suite closes its own.
const [forWorkspaces, forTopics, forProposals] = await Promise.all([openPgliteStores(), openPgliteStores(), openPgliteStores()]);

runWorkspaceStoresContract("pglite", async () => forWorkspaces);
runTopicStoresContract("pglite", async () => forTopics);
runProposalRelationStoresContract("pglite", async () => forProposals);

const forShares = await openPgliteStores();
runShareStoresContract("pglite", async () => forShares);

// Its own store, opened at load too.
const forCodeIndex = await openPgliteStores();
runCodeIndexStoresContract("pglite", async () => forCodeIndex);

const forCollections = await openPgliteStores();
runCollectionStoresContract("pglite", async () => forCollections);
