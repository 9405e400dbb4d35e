import * as bunTest from "bun:test";
import { createMemoryEventBus } from "../../adapters/memory/event-bus.ts";
import { createMemoryRateCounter } from "../../adapters/memory/rate-counter.ts";
import { runEventBusContract } from "./event-bus.contract.ts";
import { runRateCounterContract } from "./rate-counter.contract.ts";

runEventBusContract(
  "memory",
  async () => {
    const bus = createMemoryEventBus();
    return { a: bus, b: bus, settled: async () => {}, close: () => bus.close() };
  },
  bunTest,
);

runRateCounterContract("memory", async () => createMemoryRateCounter(), bunTest);
