import { withAuthCache } from "../../adapters/cache/cached-stores.ts";
import { createLocalInvalidationBus } from "../../adapters/cache/invalidation-bus.ts";
import { createMemoryStores } from "../../adapters/memory/mod.ts";
import { radarRunsSuite } from "./radar-runs.suite.ts";

radarRunsSuite("memory", async () => withAuthCache(createMemoryStores(), createLocalInvalidationBus()));
