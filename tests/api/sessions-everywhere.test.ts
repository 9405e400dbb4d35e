import { createMemoryStores } from "../../adapters/memory/mod.ts";
import { openPgliteStores } from "../../adapters/postgres/mod.ts";
import { runSessionsEverywhereSuite } from "./sessions-everywhere.suite.ts";

// Opened at load, not in a hook: PGlite's start-up (seconds under load) can outlast a hook's timeout.
const pglite = await openPgliteStores();

runSessionsEverywhereSuite("sessions wherever a person acts, on memory", async () => createMemoryStores());
runSessionsEverywhereSuite("sessions wherever a person acts, on pglite", async () => pglite);
