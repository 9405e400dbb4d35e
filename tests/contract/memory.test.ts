import { createMemoryStores } from "../../adapters/memory/mod.ts";
import { runWorkspaceStoresContract } from "./workspace-stores.contract.ts";

runWorkspaceStoresContract("memory", async () => createMemoryStores());
