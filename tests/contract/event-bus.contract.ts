import type { TestApi } from "./kit/test-api.ts";
import { eventually, sleep } from "./wait.ts";
import { type WorkspaceEvent, workspaceEvent } from "../../core/events/event.ts";
import type { EventBus } from "../../core/events/ports.ts";
import { uuidv7 } from "../../core/kernel/ids.ts";

/**
 * Two buses that stand for two server instances: for an in-process bus, the same bus twice; for a
 * broker, two independent connections to it. `settled` resolves once subscriptions asked for so
 * far are live (a broker subscribes asynchronously; `subscribe` itself cannot wait).
 */
export interface EventBusPair {
  a: EventBus;
  b: EventBus;
  settled(): Promise<void>;
  close(): Promise<void>;
}

// Where it lived first; its importers keep importing it from here.
export { eventually };

const event = (workspaceId: string, type = "member.added", data: Record<string, unknown> = {}): WorkspaceEvent =>
  workspaceEvent(workspaceId, type, uuidv7(), new Date(), data);

/**
 * The contract of `EventBus`: at-most-once fan-out of a workspace's events to its live
 * subscribers on every instance. Negative checks ("not delivered") publish a sentinel after the
 * event that must not arrive and wait for the sentinel: delivery is in publish order.
 */
export function runEventBusContract(name: string, makePair: () => Promise<EventBusPair>, api: TestApi) {
  const { afterAll, beforeAll, describe, expect, test } = api;
  describe(`${name}: EventBus`, () => {
    let p: EventBusPair;
    beforeAll(async () => {
      p = await makePair();
    });
    afterAll(async () => {
      await p?.close();
    });

    test("EventBus.publish() on one instance reaches a subscriber of the other, unchanged", async () => {
      const ws = uuidv7();
      const got: WorkspaceEvent[] = [];
      const off = p.b.subscribe(ws, (e) => got.push(e));
      await p.settled();
      const e = event(ws, "api_key.revoked", { key_id: uuidv7(), nested: { n: 1, list: ["x", null] } });
      await p.a.publish(e);
      await eventually(() => got.length === 1);
      expect(got[0]).toEqual(e);
      off();
    });

    test("EventBus.publish() reaches subscribers on the publishing instance, once each", async () => {
      const ws = uuidv7();
      const first: WorkspaceEvent[] = [];
      const second: WorkspaceEvent[] = [];
      const offs = [p.a.subscribe(ws, (e) => first.push(e)), p.a.subscribe(ws, (e) => second.push(e))];
      await p.settled();
      const e = event(ws);
      await p.a.publish(e);
      // a sentinel through the other instance proves nothing else is still on its way
      const sentinel = event(ws, "sentinel");
      await p.b.publish(sentinel);
      await eventually(() => first.length === 2 && second.length === 2);
      expect(first).toEqual([e, sentinel]);
      expect(second).toEqual([e, sentinel]);
      for (const off of offs) off();
    });

    test("EventBus.subscribe() does not deliver other workspaces' events", async () => {
      const mine = uuidv7();
      const other = uuidv7();
      const got: WorkspaceEvent[] = [];
      const off = p.b.subscribe(mine, (e) => got.push(e));
      await p.settled();
      await p.a.publish(event(other));
      const sentinel = event(mine, "sentinel");
      await p.a.publish(sentinel);
      await eventually(() => got.length >= 1);
      await sleep(20);
      expect(got).toEqual([sentinel]);
      off();
    });

    test("EventBus unsubscribe stops delivery to that listener and keeps the others", async () => {
      const ws = uuidv7();
      const kept: WorkspaceEvent[] = [];
      const dropped: WorkspaceEvent[] = [];
      const offKept = p.b.subscribe(ws, (e) => kept.push(e));
      const offDropped = p.b.subscribe(ws, (e) => dropped.push(e));
      await p.settled();
      const before = event(ws, "before");
      await p.a.publish(before);
      await eventually(() => kept.length === 1 && dropped.length === 1);
      offDropped();
      offDropped(); // calling it twice is harmless
      await p.settled();
      const after = event(ws, "after");
      await p.a.publish(after);
      await eventually(() => kept.length === 2);
      await sleep(20);
      expect(kept).toEqual([before, after]);
      expect(dropped).toEqual([before]);
      offKept();
    });

    test("EventBus unsubscribe of the last listener stops delivery; a new subscriber gets events again", async () => {
      const ws = uuidv7();
      const sentinelWs = uuidv7();
      const gone: WorkspaceEvent[] = [];
      const sentinels: WorkspaceEvent[] = [];
      const offSentinel = p.b.subscribe(sentinelWs, (e) => sentinels.push(e));
      const off = p.b.subscribe(ws, (e) => gone.push(e));
      await p.settled();
      off();
      await p.settled();
      await p.a.publish(event(ws, "unheard"));
      await p.a.publish(event(sentinelWs, "sentinel"));
      await eventually(() => sentinels.length === 1);
      await sleep(20);
      expect(gone).toEqual([]);

      // subscribe, unsubscribe and subscribe again without waiting in between: the last one wins
      const back: WorkspaceEvent[] = [];
      p.b.subscribe(ws, () => {})();
      const offBack = p.b.subscribe(ws, (e) => back.push(e));
      await p.settled();
      const e = event(ws, "heard");
      await p.a.publish(e);
      await eventually(() => back.length === 1);
      expect(back).toEqual([e]);
      expect(gone).toEqual([]);
      offBack();
      offSentinel();
    });

    test("EventBus keeps delivering to the other listeners when one throws", async () => {
      const ws = uuidv7();
      const got: WorkspaceEvent[] = [];
      const offs = [
        p.b.subscribe(ws, () => {
          throw new Error("listener failure");
        }),
        p.b.subscribe(ws, (e) => got.push(e)),
      ];
      await p.settled();
      const e = event(ws);
      await p.a.publish(e);
      await eventually(() => got.length === 1);
      expect(got).toEqual([e]);
      for (const off of offs) off();
    });

    test("EventBus.publish() with no subscriber anywhere resolves", async () => {
      expect(await p.a.publish(event(uuidv7()))).toBeUndefined();
    });
  });
}
