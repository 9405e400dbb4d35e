import { withAuthCache } from "../../adapters/cache/cached-stores.ts";
import { createLocalInvalidationBus } from "../../adapters/cache/invalidation-bus.ts";
import { createMemoryStores } from "../../adapters/memory/mod.ts";
import { openMongoStores } from "../../adapters/mongo/mod.ts";
import { openPgliteStores, openPostgresStores } from "../../adapters/postgres/mod.ts";
import { freshMongoDatabase, sharedMongo } from "../support/mongo-server.ts";
import { freshDatabase, sharedPostgres } from "../support/postgres-server.ts";
import { radarContactsSuite } from "./radar-contacts.suite.ts";

// Every backend: the record writes ride on each one's finish (one statement on PostgreSQL and
// PGlite, one turn on memory, the settles then the records on MongoDB).
radarContactsSuite("memory", async () => withAuthCache(createMemoryStores(), createLocalInvalidationBus()));
// Opened at load: PGlite's start-up can outlast a hook's timeout.
const pglite = await openPgliteStores();
radarContactsSuite("pglite", async () => pglite);
const postgres = await sharedPostgres();
radarContactsSuite("postgres", async () => openPostgresStores(await freshDatabase(postgres)));
const mongo = await sharedMongo();
radarContactsSuite("mongo", () => openMongoStores(freshMongoDatabase(mongo)));
