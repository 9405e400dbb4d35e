import { createMemoryStores } from "../../adapters/memory/mod.ts";
import { openPgliteStores } from "../../adapters/postgres/mod.ts";
import { runOAuthTokenSuite } from "./oauth-tokens.suite.ts";

// Opened at load, not in a hook: PGlite's start-up (seconds under load) can outlast a hook's timeout.
const pglite = await openPgliteStores();

runOAuthTokenSuite("OAuth access tokens on memory", async () => createMemoryStores());
runOAuthTokenSuite("OAuth access tokens on pglite", async () => pglite);
