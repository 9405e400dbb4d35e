import { createMemoryStores } from "../../adapters/memory/mod.ts";
import { openMongoStores } from "../../adapters/mongo/mod.ts";
import { openPgliteStores, openPostgresStores } from "../../adapters/postgres/mod.ts";
import { freshMongoDatabase, sharedMongo } from "../support/mongo-server.ts";
import { freshDatabase, sharedPostgres } from "../support/postgres-server.ts";
import { runWorkspaceArchiveSuite } from "./workspace-archive.suite.ts";

// The workspace archive (issue #25, ADR 068) on every backend: the round trip is the main test.
runWorkspaceArchiveSuite("workspace archive on memory", async () => createMemoryStores());

// Opened at load, not in a hook: PGlite's start-up (seconds under load) can outlast a hook's timeout.
const pglite = await openPgliteStores();
runWorkspaceArchiveSuite("workspace archive on pglite", async () => pglite);

const postgres = await sharedPostgres();
runWorkspaceArchiveSuite("workspace archive on postgres", async () => openPostgresStores(await freshDatabase(postgres)));

const mongo = await sharedMongo();
runWorkspaceArchiveSuite("workspace archive on mongo", async () => openMongoStores(freshMongoDatabase(mongo)));
