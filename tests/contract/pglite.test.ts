import * as bunTest from "bun:test";
import { openPgliteStores } from "../../adapters/postgres/mod.ts";
import { runStoreContracts, storeSuiteIds } from "./kit/mod.ts";

// Opened at load, not in the suites' hooks: PGlite's start-up (seconds under load, with its
// btree_gin extension) can outlast a hook's timeout. One store per suite; each suite closes its own.
const stores = new Map(await Promise.all(storeSuiteIds.map(async (suite) => [suite, await openPgliteStores()] as const)));

runStoreContracts("pglite", async (suite) => stores.get(suite)!, { api: bunTest });
