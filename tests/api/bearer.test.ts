import { createMemoryStores } from "../../adapters/memory/mod.ts";
import { openPgliteStores } from "../../adapters/postgres/mod.ts";
import { runBearerSuite } from "./bearer.suite.ts";

// Opened at load, not in a hook: PGlite's start-up (seconds under load) can outlast a hook's timeout.
const pglite = await openPgliteStores();

runBearerSuite("bearer credentials on memory", async () => createMemoryStores());
runBearerSuite("bearer credentials on pglite", async () => pglite);
