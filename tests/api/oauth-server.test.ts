import { createMemoryStores } from "../../adapters/memory/mod.ts";
import { openPgliteStores } from "../../adapters/postgres/mod.ts";
import { runOAuthServerSuite } from "./oauth-server.suite.ts";

// Opened at load, not in a hook: PGlite's start-up (seconds under load) can outlast a hook's timeout.
const pglite = await openPgliteStores();

runOAuthServerSuite("OAuth authorization server on memory", async () => createMemoryStores());
runOAuthServerSuite("OAuth authorization server on pglite", async () => pglite);
