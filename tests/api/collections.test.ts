import { createMemoryStores } from "../../adapters/memory/mod.ts";
import { openPgliteStores } from "../../adapters/postgres/mod.ts";
import { runCollectionsApiSuite } from "./collections.suite.ts";

runCollectionsApiSuite("collections over HTTP (memory)", async () => createMemoryStores());

// Opened at load: PGlite's start-up can outlast a hook's timeout.
const pglite = await openPgliteStores();
runCollectionsApiSuite("collections over HTTP (pglite)", async () => pglite);
