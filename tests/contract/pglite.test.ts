import { openPgliteStores } from "../../adapters/postgres/mod.ts";
import { runWorkspaceStoresContract } from "./workspace-stores.contract.ts";

runWorkspaceStoresContract("pglite", () => openPgliteStores());
