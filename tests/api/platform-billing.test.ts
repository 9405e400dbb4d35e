import { createMemoryStores } from "../../adapters/memory/mod.ts";
import { openPgliteStores } from "../../adapters/postgres/mod.ts";
import { runPlatformBillingApiSuite } from "./platform-billing.suite.ts";

runPlatformBillingApiSuite("platform billing over HTTP (memory)", async () => createMemoryStores());

// Opened at load: PGlite's start-up can outlast a hook's timeout.
const pglite = await openPgliteStores();
runPlatformBillingApiSuite("platform billing over HTTP (pglite)", async () => pglite);
