import { createMemoryStores } from "../../adapters/memory/mod.ts";
import { openMongoStores } from "../../adapters/mongo/mod.ts";
import { openPgliteStores, openPostgresStores } from "../../adapters/postgres/mod.ts";
import { freshMongoDatabase, sharedMongo } from "../support/mongo-server.ts";
import { freshDatabase, sharedPostgres } from "../support/postgres-server.ts";
import { runBillingSuite } from "./billing.suite.ts";

// Opened at load, not in a hook: PGlite's start-up (seconds under load) can outlast a hook's timeout.
const pglite = await openPgliteStores();

runBillingSuite("billing on memory", async () => createMemoryStores());
runBillingSuite("billing on pglite", async () => pglite);

// And on PostgreSQL (postgres.js) and the MongoDB-wire server: the routes' behaviour must not depend on the backend.
const postgres = await sharedPostgres();
runBillingSuite("billing on postgres", async () => openPostgresStores(await freshDatabase(postgres)));
const mongo = await sharedMongo();
runBillingSuite("billing on mongo", async () => openMongoStores(freshMongoDatabase(mongo)));
