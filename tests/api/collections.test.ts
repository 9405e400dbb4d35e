import { createMemoryStores } from "../../adapters/memory/mod.ts";
import { openMongoStores } from "../../adapters/mongo/mod.ts";
import { freshMongoDatabase, sharedMongo } from "../support/mongo-server.ts";
import { openPgliteStores } from "../../adapters/postgres/mod.ts";
import { runCollectionsApiSuite } from "./collections.suite.ts";

runCollectionsApiSuite("collections over HTTP (memory)", async () => createMemoryStores());

// Opened at load: PGlite's start-up can outlast a hook's timeout.
const pglite = await openPgliteStores();
runCollectionsApiSuite("collections over HTTP (pglite)", async () => pglite, { rollups: true });

// And on the MongoDB-wire server: the routes' behaviour must not depend on the backend.
const mongo = await sharedMongo();
runCollectionsApiSuite("collections over HTTP (mongo)", async () => openMongoStores(freshMongoDatabase(mongo)));
