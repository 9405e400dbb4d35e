import { openPostgresStores } from "../../adapters/postgres/mod.ts";
import { freshDatabase, sharedPostgres } from "../support/postgres-server.ts";
import { runCollectionStoresContract } from "./collection-stores.contract.ts";
import { runShareStoresContract } from "./share-stores.contract.ts";
import { runCodeIndexStoresContract } from "./code-index-stores.contract.ts";
import { runTopicStoresContract } from "./topic-stores.contract.ts";
import { runProposalRelationStoresContract } from "./proposal-relation-stores.contract.ts";
import { runWorkspaceStoresContract } from "./workspace-stores.contract.ts";

runWorkspaceStoresContract("postgres", async () => openPostgresStores(await freshDatabase(await sharedPostgres())));

runTopicStoresContract("postgres", async () => openPostgresStores(await freshDatabase(await sharedPostgres())));

runCodeIndexStoresContract("postgres", async () => openPostgresStores(await freshDatabase(await sharedPostgres())));

runProposalRelationStoresContract("postgres", async () => openPostgresStores(await freshDatabase(await sharedPostgres())));

runShareStoresContract("postgres", async () => openPostgresStores(await freshDatabase(await sharedPostgres())));

runCollectionStoresContract("postgres", async () => openPostgresStores(await freshDatabase(await sharedPostgres())));
