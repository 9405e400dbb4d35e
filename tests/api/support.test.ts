import { createMemoryStores } from "../../adapters/memory/mod.ts";
import { openPgliteStores } from "../../adapters/postgres/mod.ts";
import { runSupportSuite } from "./support.suite.ts";

// Opened at load, not in a hook: PGlite's start-up (seconds under load) can outlast a hook's timeout.
const pglite = await openPgliteStores();

runSupportSuite("support webhook on memory", async () => createMemoryStores());
runSupportSuite("support webhook on pglite", async () => pglite);
