import { createMemoryStores } from "../../adapters/memory/mod.ts";
import { openPgliteStores } from "../../adapters/postgres/mod.ts";
import { runIdentityWebhookSuite } from "./identity-webhook.suite.ts";

// Opened at load, not in a hook: PGlite's start-up (seconds under load) can outlast a hook's timeout.
const pglite = await openPgliteStores();

runIdentityWebhookSuite("identity webhook on memory", async () => createMemoryStores());
runIdentityWebhookSuite("identity webhook on pglite", async () => pglite);
