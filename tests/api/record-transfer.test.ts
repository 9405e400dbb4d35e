import { createMemoryStores } from "../../adapters/memory/mod.ts";
import { openMongoStores } from "../../adapters/mongo/mod.ts";
import { openPgliteStores, openPostgresStores } from "../../adapters/postgres/mod.ts";
import { freshMongoDatabase, sharedMongo } from "../support/mongo-server.ts";
import { freshDatabase, sharedPostgres } from "../support/postgres-server.ts";
import { runRecordTransferSuite } from "./record-transfer.suite.ts";

// Records as CSV and NDJSON (issue #25) on every backend: the routes' behaviour must not depend on it.
runRecordTransferSuite("records CSV/NDJSON on memory", async () => createMemoryStores());

// Opened at load, not in a hook: PGlite's start-up (seconds under load) can outlast a hook's timeout.
const pglite = await openPgliteStores();
runRecordTransferSuite("records CSV/NDJSON on pglite", async () => pglite);

const postgres = await sharedPostgres();
runRecordTransferSuite("records CSV/NDJSON on postgres", async () => openPostgresStores(await freshDatabase(postgres)));

const mongo = await sharedMongo();
// FerretDB scans rather than using indexes: a round trip of just over a store page, a small row limit.
runRecordTransferSuite("records CSV/NDJSON on mongo", async () => openMongoStores(freshMongoDatabase(mongo)), { rows: 205, maxRows: 260 });
