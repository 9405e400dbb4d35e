// Runs under Deno (not bun:test): the contract kit against the memory adapters, registered with
// Deno's own test runner through the kit's adapter. This is what an app that embeds core with its
// own adapters would write; it needs nothing fetched (no JSR, no npm package beyond the tree's).
import { createMemoryEventBus } from "../../adapters/memory/event-bus.ts";
import { createMemoryJobQueue } from "../../adapters/memory/job-queue.ts";
import { createMemoryStores } from "../../adapters/memory/mod.ts";
import { createMemoryRateCounter } from "../../adapters/memory/rate-counter.ts";
import { createSampleDirectory } from "../../adapters/radar-sample/mod.ts";
import type { Stores } from "../../core/stores.ts";
import {
  denoTestApi,
  runEventBusContract,
  runJobQueueContract,
  runProspectDirectoryContract,
  runRateCounterContract,
  runStoreContracts,
  storeSuiteIds,
} from "../contract/kit/mod.ts";

declare const Deno: { test(name: string, fn: () => void): void };

// Counted to show the injected hooks ran: each suite opens its store before its first test and
// closes it after its last.
let opened = 0;
let closed = 0;
function openCounted(): Stores {
  const stores = createMemoryStores();
  opened++;
  return { ...stores, close: async () => void (closed++, await stores.close()) };
}

const api = denoTestApi();
runStoreContracts("memory on Deno", async () => openCounted(), { api });
runEventBusContract(
  "memory on Deno",
  async () => {
    const bus = createMemoryEventBus();
    return { a: bus, b: bus, settled: async () => {}, close: () => bus.close() };
  },
  api,
);
runRateCounterContract("memory on Deno", async () => createMemoryRateCounter(), api);
runJobQueueContract("memory on Deno", async (log) => createMemoryJobQueue(log), api);
runProspectDirectoryContract("sample on Deno", async () => createSampleDirectory(), api);

Deno.test("contract kit on Deno: every suite opened its stores (the transfer suite two: source and target) and closed them after its last test", () => {
  const expected = storeSuiteIds.length + 1;
  if (opened !== expected || closed !== opened) {
    throw new Error(`Expected ${expected} stores opened and closed: ${opened} opened, ${closed} closed`);
  }
});
