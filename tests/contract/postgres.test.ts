import * as bunTest from "bun:test";
import { openPostgresStores } from "../../adapters/postgres/mod.ts";
import { freshDatabase, sharedPostgres } from "../support/postgres-server.ts";
import { runStoreContracts } from "./kit/mod.ts";

runStoreContracts("postgres", async () => openPostgresStores(await freshDatabase(await sharedPostgres())), { api: bunTest });
