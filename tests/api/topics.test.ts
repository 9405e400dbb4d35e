import { createMemoryStores } from "../../adapters/memory/mod.ts";
import { openPgliteStores } from "../../adapters/postgres/mod.ts";
import { runTopicApiSuite } from "./topics.suite.ts";

// Opened at load, not in a hook: PGlite's start-up (seconds under load) can outlast a hook's timeout.
const pglite = await openPgliteStores();

// The HTTP behaviour of topics is the same whichever store serves it: the reference store and the
// embedded SQL store (the server's default) both run the whole suite.
runTopicApiSuite("topics API on memory", async () => createMemoryStores());
runTopicApiSuite("topics API on pglite", async () => pglite);
