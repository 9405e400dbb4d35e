import { openPostgresStores } from "../../adapters/postgres/mod.ts";
import { freshDatabase, sharedPostgres } from "../support/postgres-server.ts";
import { runTopicStoresContract } from "./topic-stores.contract.ts";
import { runWorkspaceStoresContract } from "./workspace-stores.contract.ts";

runWorkspaceStoresContract("postgres", async () => openPostgresStores(await freshDatabase(await sharedPostgres())));

runTopicStoresContract("postgres", async () => openPostgresStores(await freshDatabase(await sharedPostgres())));
