import { openPgliteStores } from "../../adapters/postgres/mod.ts";
import { runTopicStoresContract } from "./topic-stores.contract.ts";
import { runWorkspaceStoresContract } from "./workspace-stores.contract.ts";

// Opened at load, not in the suites' hooks: PGlite's start-up (seconds under load, with its
// btree_gin extension) can outlast a hook's timeout. Each suite closes its own.
const [forWorkspaces, forTopics] = await Promise.all([openPgliteStores(), openPgliteStores()]);

runWorkspaceStoresContract("pglite", async () => forWorkspaces);
runTopicStoresContract("pglite", async () => forTopics);
