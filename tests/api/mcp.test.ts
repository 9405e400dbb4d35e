import { createMemoryStores } from "../../adapters/memory/mod.ts";
import { openPgliteStores } from "../../adapters/postgres/mod.ts";
import { runMcpSuite } from "./mcp.suite.ts";

// Opened at load, not in a hook: PGlite's start-up (seconds under load) can outlast a hook's timeout.
const pglite = await openPgliteStores();

runMcpSuite("MCP over HTTP on memory", async () => createMemoryStores());
runMcpSuite("MCP over HTTP on pglite", async () => pglite);
