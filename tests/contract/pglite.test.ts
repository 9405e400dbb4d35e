import * as bunTest from "bun:test";
import { openPgliteStores } from "../../adapters/postgres/mod.ts";
import type { Stores } from "../../core/stores.ts";
import { runStoreContracts, type StoreSuite, storeSuiteIds } from "./kit/mod.ts";

// Opened at load, not in the suites' hooks: PGlite's start-up (seconds under load, with its
// btree_gin extension) can outlast a hook's timeout. One store per suite, each closed by its suite;
// opened one after the other, which on two cores is faster than all at once.
const stores = new Map<StoreSuite, Stores>();
for (const suite of storeSuiteIds) stores.set(suite, await openPgliteStores());

runStoreContracts("pglite", async (suite) => stores.get(suite)!, { api: bunTest });
