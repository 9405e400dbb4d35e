import { createMemoryStores } from "../../adapters/memory/mod.ts";
import { openMongoStores } from "../../adapters/mongo/mod.ts";
import { openPgliteStores, openPostgresStores } from "../../adapters/postgres/mod.ts";
import { freshMongoDatabase, sharedMongo } from "../support/mongo-server.ts";
import { freshDatabase, sharedPostgres } from "../support/postgres-server.ts";
import { runTopicImportSuite } from "./topic-import.suite.ts";

// The same archives on every backend: an import must not depend on where topics are kept.
runTopicImportSuite("Markdown import on memory", async () => createMemoryStores());
// Opened at load, not in a hook: PGlite's start-up can outlast a hook's timeout.
const pglite = await openPgliteStores();
runTopicImportSuite("Markdown import on pglite", async () => pglite);
const postgres = await sharedPostgres();
runTopicImportSuite("Markdown import on postgres", async () => openPostgresStores(await freshDatabase(postgres)));
const mongo = await sharedMongo();
runTopicImportSuite("Markdown import on mongo", async () => openMongoStores(freshMongoDatabase(mongo)));
