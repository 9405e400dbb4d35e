import * as bunTest from "bun:test";
import { createMemoryStores } from "../../adapters/memory/mod.ts";
import { runStoreContracts } from "./kit/mod.ts";

runStoreContracts("memory", async () => createMemoryStores(), { api: bunTest });
