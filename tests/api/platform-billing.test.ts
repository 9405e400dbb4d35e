import { createMemoryStores } from "../../adapters/memory/mod.ts";
import { openMongoStores } from "../../adapters/mongo/mod.ts";
import { openPgliteStores, openPostgresStores } from "../../adapters/postgres/mod.ts";
import { freshMongoDatabase, sharedMongo } from "../support/mongo-server.ts";
import { freshDatabase, sharedPostgres } from "../support/postgres-server.ts";
import { runPlatformBillingApiSuite } from "./platform-billing.suite.ts";

runPlatformBillingApiSuite("platform billing over HTTP (memory)", async () => createMemoryStores());

// Opened at load: PGlite's start-up can outlast a hook's timeout.
const pglite = await openPgliteStores();
runPlatformBillingApiSuite("platform billing over HTTP (pglite)", async () => pglite);

// And on PostgreSQL (postgres.js) and the MongoDB-wire server: the routes' behaviour must not depend on the backend.
const postgres = await sharedPostgres();
runPlatformBillingApiSuite("platform billing over HTTP (postgres)", async () => openPostgresStores(await freshDatabase(postgres)));
const mongo = await sharedMongo();
runPlatformBillingApiSuite("platform billing over HTTP (mongo)", async () => openMongoStores(freshMongoDatabase(mongo)));
