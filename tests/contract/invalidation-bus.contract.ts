import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { InvalidationBus } from "../../adapters/cache/invalidation-bus.ts";
import { uuidv7 } from "../../core/kernel/ids.ts";
import { eventually } from "./event-bus.contract.ts";

/**
 * Two buses standing for two server instances. `disrupt` cuts `b`'s subscription off so that it
 * has to resubscribe (it may have missed messages meanwhile).
 */
export interface InvalidationBusPair {
  a: InvalidationBus;
  b: InvalidationBus;
  disrupt(): Promise<void>;
  close(): Promise<void>;
}

/** The contract of a cross-instance `InvalidationBus` (not the single-process no-op). */
export function runInvalidationBusContract(name: string, makePair: () => Promise<InvalidationBusPair>) {
  describe(`${name}: InvalidationBus`, () => {
    let p: InvalidationBusPair;
    const heardByB: string[] = [];
    const alsoHeardByB: string[] = [];
    beforeAll(async () => {
      p = await makePair();
      p.b.subscribe((id) => heardByB.push(id));
      p.b.subscribe((id) => alsoHeardByB.push(id));
    });
    afterAll(async () => {
      await p?.close();
    });

    test("InvalidationBus.publish() on one instance reaches every listener of the other", async () => {
      const ws = uuidv7();
      await p.a.publish(ws);
      await eventually(() => heardByB.includes(ws) && alsoHeardByB.includes(ws));
      expect(heardByB.filter((id) => id === ws)).toHaveLength(1);
      expect(alsoHeardByB.filter((id) => id === ws)).toHaveLength(1);
    });

    test('InvalidationBus tells its listeners "*" when it resubscribes, then delivers again', async () => {
      const starsBefore = heardByB.filter((id) => id === "*").length;
      await p.disrupt();
      await eventually(() => heardByB.filter((id) => id === "*").length > starsBefore, 10_000);
      const ws = uuidv7();
      await p.a.publish(ws);
      await eventually(() => heardByB.includes(ws));
    });

    test("InvalidationBus.publish() resolves when nobody listens", async () => {
      await expect(p.b.publish(uuidv7())).resolves.toBeUndefined();
    });
  });
}
