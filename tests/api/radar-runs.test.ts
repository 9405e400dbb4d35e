import { withAuthCache } from "../../adapters/cache/cached-stores.ts";
import { createLocalInvalidationBus } from "../../adapters/cache/invalidation-bus.ts";
import { createMemoryStores } from "../../adapters/memory/mod.ts";
import { openMongoStores } from "../../adapters/mongo/mod.ts";
import { openPgliteStores } from "../../adapters/postgres/mod.ts";
import { freshMongoDatabase, sharedMongo } from "../support/mongo-server.ts";
import { radarRunsSuite } from "./radar-runs.suite.ts";

radarRunsSuite("memory", async () => withAuthCache(createMemoryStores(), createLocalInvalidationBus()));

// The embedded store, and the MongoDB-wire server: runs must not depend on the backend.
radarRunsSuite("pglite", () => openPgliteStores());
const mongo = await sharedMongo();
radarRunsSuite("mongo", () => openMongoStores(freshMongoDatabase(mongo)));
