import { runTopicStoresContract } from "./topic-stores.contract.ts";
import { createMemoryStores } from "../../adapters/memory/mod.ts";
import { runWorkspaceStoresContract } from "./workspace-stores.contract.ts";

runWorkspaceStoresContract("memory", async () => createMemoryStores());

runTopicStoresContract("memory", async () => createMemoryStores());
