import { runCollectionStoresContract } from "./collection-stores.contract.ts";
import { runShareStoresContract } from "./share-stores.contract.ts";
import { runCodeIndexStoresContract } from "./code-index-stores.contract.ts";
import { runTopicStoresContract } from "./topic-stores.contract.ts";
import { runProposalRelationStoresContract } from "./proposal-relation-stores.contract.ts";
import { createMemoryStores } from "../../adapters/memory/mod.ts";
import { runWorkspaceStoresContract } from "./workspace-stores.contract.ts";

runWorkspaceStoresContract("memory", async () => createMemoryStores());

runTopicStoresContract("memory", async () => createMemoryStores());

runCodeIndexStoresContract("memory", async () => createMemoryStores());

runProposalRelationStoresContract("memory", async () => createMemoryStores());

runShareStoresContract("memory", async () => createMemoryStores());

runCollectionStoresContract("memory", async () => createMemoryStores());
