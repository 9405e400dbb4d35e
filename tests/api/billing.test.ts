import { createMemoryStores } from "../../adapters/memory/mod.ts";
import { openPgliteStores } from "../../adapters/postgres/mod.ts";
import { runBillingSuite } from "./billing.suite.ts";

// Opened at load, not in a hook: PGlite's start-up (seconds under load) can outlast a hook's timeout.
const pglite = await openPgliteStores();

runBillingSuite("billing on memory", async () => createMemoryStores());
runBillingSuite("billing on pglite", async () => pglite);
