import type { TestApi } from "./kit/test-api.ts";
import type { Stores } from "../../core/stores.ts";
import { fixedClock } from "../../core/kernel/clock.ts";
import {
  deliverOnce,
  recoverWebhookDeliveries,
  WEBHOOK_LEASE_MS,
  WEBHOOK_MAX_ATTEMPTS,
  type WebhookHandler,
} from "../../core/webhooks/mod.ts";
import { unique } from "./fixtures.ts";

/**
 * The contract of the webhook inbox (docs/decisions/042-webhook-inbox.md): a delivery recorded
 * with its payload under its unique key in one write, leases taken by one attempt at a time, marked
 * applied; and, through core's `deliverOnce` and recovery sweep on each backend, a delivery whose
 * process died between recording and applying is applied exactly once, by a redelivery or the sweep.
 */
export function runWebhookStoresContract(name: string, open: () => Promise<Stores>, api: TestApi) {
  const { afterAll, beforeAll, describe, expect, test } = api;
  describe(`${name}: webhook stores`, () => {
    let s: Stores;
    beforeAll(async () => {
      s = await open();
    });
    afterAll(async () => {
      await s?.close();
    });

    const t0 = Date.parse("2031-05-01T10:00:00.000Z");
    const at = (ms: number) => new Date(t0 + ms).toISOString();
    const fresh = (source: string, id: string, payload = "{}", ms = 0) => ({
      source,
      delivery_id: id,
      payload,
      at: at(ms),
      lease_until: at(ms + WEBHOOK_LEASE_MS),
    });

    test("record() keeps the payload under (source, id); again while held: busy; once applied: applied, outcome kept", async () => {
      const source = unique("src");
      const first = await s.webhookDeliveries.record(fresh(source, "d1", '{"a":1}'));
      expect(first.kind).toBe("new");
      expect(first.delivery).toMatchObject({
        source,
        delivery_id: "d1",
        payload: '{"a":1}',
        state: "received",
        attempts: 1,
        outcome: null,
      });
      expect(first.delivery.received_at).toBe(at(0));
      expect(first.delivery.lease_until).toBe(at(WEBHOOK_LEASE_MS));
      // Another source, the same id: another delivery.
      expect((await s.webhookDeliveries.record(fresh(unique("other"), "d1"))).kind).toBe("new");
      const held = await s.webhookDeliveries.record(fresh(source, "d1", '{"a":2}', 1_000));
      expect(held.kind).toBe("busy");
      expect(held.delivery.payload).toBe('{"a":1}');
      await s.webhookDeliveries.markApplied(source, "d1", "processed", at(2_000));
      await s.webhookDeliveries.markApplied(source, "d1", "ignored", at(3_000));
      const again = await s.webhookDeliveries.record(fresh(source, "d1", '{"a":3}', 10 * WEBHOOK_LEASE_MS));
      expect(again.kind).toBe("applied");
      expect(await s.webhookDeliveries.get(source, "d1")).toMatchObject({ state: "applied", outcome: "processed", payload: '{"a":1}' });
      expect((await s.webhookDeliveries.get(source, "d1"))?.applied_at).toBe(at(2_000));
      expect(await s.webhookDeliveries.get(source, "unknown")).toBeNull();
    });

    test("a crash between recording and applying: the redelivery after the lease takes it (payload recorded first), once", async () => {
      const source = unique("src");
      expect((await s.webhookDeliveries.record(fresh(source, "d", "first"))).kind).toBe("new");
      // The process died here: nothing marked. Within the lease a redelivery is busy; after it, taken.
      expect((await s.webhookDeliveries.record(fresh(source, "d", "second", WEBHOOK_LEASE_MS - 1))).kind).toBe("busy");
      const taken = await s.webhookDeliveries.record(fresh(source, "d", "second", WEBHOOK_LEASE_MS));
      expect(taken.kind).toBe("taken");
      expect(taken.delivery).toMatchObject({ payload: "first", state: "received", attempts: 2 });
      expect(taken.delivery.lease_until).toBe(at(2 * WEBHOOK_LEASE_MS));
      expect((await s.webhookDeliveries.record(fresh(source, "d", "third", WEBHOOK_LEASE_MS + 1))).kind).toBe("busy");
      await s.webhookDeliveries.markApplied(source, "d", "processed", at(WEBHOOK_LEASE_MS + 2));
      expect((await s.webhookDeliveries.record(fresh(source, "d", "fourth", 5 * WEBHOOK_LEASE_MS))).kind).toBe("applied");
      expect(await s.webhookDeliveries.take(source, "d", at(9 * WEBHOOK_LEASE_MS), at(10 * WEBHOOK_LEASE_MS))).toBeNull();
    });

    // The port promises who may apply, not which call wins nor how its answer is named: on MongoDB a
    // redelivery can take attempt 1 between the recording insert and its lease (`taken`, the
    // recorder then `busy`). So these assert one applier, the rest busy, and one payload kept.
    const appliers = (rs: { kind: string }[]) => rs.filter((r) => r.kind === "new" || r.kind === "taken");

    test("record(): of concurrent deliveries of one new id exactly one may apply it (new or taken, attempt 1), the others are busy; one payload is kept", async () => {
      const source = unique("src");
      const results = await Promise.all(Array.from({ length: 8 }, (_, i) => s.webhookDeliveries.record(fresh(source, "c", `p${i}`))));
      expect(appliers(results)).toHaveLength(1);
      expect(appliers(results)[0]).toMatchObject({ delivery: { attempts: 1, state: "received" } });
      expect(results.filter((r) => r.kind === "busy")).toHaveLength(7);
      const kept = (await s.webhookDeliveries.get(source, "c"))!.payload;
      expect(results.map((r) => r.delivery.payload)).toEqual(Array(8).fill(kept));
      const later = await Promise.all(
        Array.from({ length: 8 }, () => s.webhookDeliveries.record(fresh(source, "c", "{}", 2 * WEBHOOK_LEASE_MS))),
      );
      expect(later.filter((r) => r.kind === "taken")).toHaveLength(1);
      expect(later.find((r) => r.kind === "taken")).toMatchObject({ delivery: { attempts: 2, payload: kept } });
      expect(later.filter((r) => r.kind === "busy")).toHaveLength(7);
    });

    test("take(): only once the lease lapsed, one of concurrent takers; release() of the holding attempt frees it at once", async () => {
      const source = unique("src");
      await s.webhookDeliveries.record(fresh(source, "t"));
      expect(await s.webhookDeliveries.take(source, "t", at(1_000), at(1_000 + WEBHOOK_LEASE_MS))).toBeNull();
      const now = at(WEBHOOK_LEASE_MS);
      const takers = await Promise.all(
        Array.from({ length: 8 }, () => s.webhookDeliveries.take(source, "t", now, at(2 * WEBHOOK_LEASE_MS))),
      );
      const won = takers.filter((t) => t !== null);
      expect(won).toHaveLength(1);
      expect(won[0]!.attempts).toBe(2);
      // A release by an attempt that no longer holds it changes nothing; the holder's frees it.
      await s.webhookDeliveries.release(source, "t", 1, at(WEBHOOK_LEASE_MS + 1));
      expect(await s.webhookDeliveries.take(source, "t", at(WEBHOOK_LEASE_MS + 2), at(3 * WEBHOOK_LEASE_MS))).toBeNull();
      await s.webhookDeliveries.release(source, "t", 2, at(WEBHOOK_LEASE_MS + 3));
      expect((await s.webhookDeliveries.record(fresh(source, "t", "{}", WEBHOOK_LEASE_MS + 4))).kind).toBe("taken");
      expect(await s.webhookDeliveries.take(source, "unknown", now, now)).toBeNull();
    });

    test("unfinished(): lapsed, unapplied, under the attempt cap, soonest lapsed first, at most limit", async () => {
      const source = unique("src");
      await s.webhookDeliveries.record(fresh(source, "late", "{}", 2_000));
      await s.webhookDeliveries.record(fresh(source, "early", "{}", 1_000));
      await s.webhookDeliveries.record(fresh(source, "held", "{}", 10 * WEBHOOK_LEASE_MS));
      await s.webhookDeliveries.record(fresh(source, "done", "{}", 0));
      await s.webhookDeliveries.markApplied(source, "done", "processed", at(1));
      const now = at(WEBHOOK_LEASE_MS + 5_000);
      const mine = async (max: number, limit = 100) =>
        (await s.webhookDeliveries.unfinished(now, max, limit)).filter((d) => d.source === source).map((d) => d.delivery_id);
      expect(await mine(WEBHOOK_MAX_ATTEMPTS)).toEqual(["early", "late"]);
      expect(await mine(1)).toEqual([]);
      await s.webhookDeliveries.take(source, "early", now, now);
      expect(await mine(2)).toEqual(["late"]);
      expect((await s.webhookDeliveries.unfinished(now, WEBHOOK_MAX_ATTEMPTS, 1)).length).toBeLessThanOrEqual(1);
      expect(await s.webhookDeliveries.unfinished(now, WEBHOOK_MAX_ATTEMPTS, 0)).toEqual([]);
    });

    test("prune() forgets deliveries received before an instant", async () => {
      const source = unique("prune");
      await s.webhookDeliveries.record({ ...fresh(source, "old"), at: "2020-01-01T00:00:00.000Z" });
      await s.webhookDeliveries.markApplied(source, "old", "processed", "2020-01-01T00:00:01.000Z");
      await s.webhookDeliveries.record({ ...fresh(source, "recent"), at: "2020-01-03T00:00:00.000Z" });
      expect(await s.webhookDeliveries.prune("2020-01-02T00:00:00.000Z")).toBeGreaterThanOrEqual(1);
      expect(await s.webhookDeliveries.get(source, "old")).toBeNull();
      expect((await s.webhookDeliveries.record(fresh(source, "old"))).kind).toBe("new");
      expect(await s.webhookDeliveries.get(source, "recent")).not.toBeNull();
    });

    /** A handler counting its effects per payload, as an idempotent handler's store would. */
    function countingHandler(source: string) {
      const applied = new Map<string, number>();
      const handler: WebhookHandler = {
        source,
        apply: async (_deps, payload) => {
          applied.set(payload, (applied.get(payload) ?? 0) + 1);
          return "processed";
        },
      };
      return { applied, handler };
    }

    test("deliverOnce + recovery: a delivery left recorded by a crash is applied exactly once by concurrent redeliveries and sweeps", async () => {
      const source = unique("crash");
      const clock = fixedClock(new Date());
      const deps = { stores: s, clock };
      const { applied, handler } = countingHandler(source);
      const apply = (p: string) => handler.apply(deps, p);
      // The first request recorded the delivery, then its process died before applying it.
      const now = clock.now();
      expect(
        (await s.webhookDeliveries.record({
          ...fresh(source, "x", "effect"),
          at: now.toISOString(),
          lease_until: new Date(now.getTime() + WEBHOOK_LEASE_MS).toISOString(),
        })).kind,
      ).toBe("new");
      // Redelivered within the lease: answered duplicate, nothing applied (the lease may still be live elsewhere).
      expect(await deliverOnce(deps, source, "x", "effect", apply, (o) => o)).toBe("duplicate");
      expect(applied.get("effect")).toBeUndefined();
      clock.advance(WEBHOOK_LEASE_MS + 1);
      // Past the lease: redeliveries and sweeps race; the effect happens once.
      const racers = await Promise.all([
        ...Array.from({ length: 4 }, () => deliverOnce(deps, source, "x", "effect", apply, (o) => o)),
        ...Array.from({ length: 2 }, () => recoverWebhookDeliveries(deps, [handler])),
      ]);
      expect(applied.get("effect")).toBe(1);
      const answers = racers.slice(0, 4);
      const swept = racers.slice(4).reduce((n, r) => n + (r as { applied: number }).applied, 0);
      expect(answers.filter((a) => a === "processed").length + swept).toBe(1);
      expect(await s.webhookDeliveries.get(source, "x")).toMatchObject({ state: "applied", outcome: "processed" });
      // Applied: a redelivery is a duplicate, a sweep finds nothing.
      expect(await deliverOnce(deps, source, "x", "effect", apply, (o) => o)).toBe("duplicate");
      clock.advance(10 * WEBHOOK_LEASE_MS);
      await recoverWebhookDeliveries(deps, [handler]);
      expect(applied.get("effect")).toBe(1);
    });

    test("deliverOnce: a failed effect leaves it unfinished; the provider's retry applies it at once, the sweep gives up after the cap", async () => {
      const source = unique("fail");
      const clock = fixedClock(new Date());
      const deps = { stores: s, clock };
      let failing = true;
      const apply = async () => {
        if (failing) throw new Error("store down");
        return "processed";
      };
      const failed = await deliverOnce(deps, source, "f", "p", apply, (o) => o).then(() => "no error", (e: Error) => e.message);
      expect(failed).toBe("store down");
      expect(await s.webhookDeliveries.get(source, "f")).toMatchObject({ state: "received", payload: "p" });
      failing = false;
      expect(await deliverOnce(deps, source, "f", "p", apply, (o) => o)).toBe("processed");
      expect(await deliverOnce(deps, source, "f", "p", apply, (o) => o)).toBe("duplicate");

      // A handler that always fails: each sweep tries once, until WEBHOOK_MAX_ATTEMPTS.
      const broken: WebhookHandler = { source, apply: () => Promise.reject(new Error("bad payload")) };
      await s.webhookDeliveries.record({ ...fresh(source, "g"), at: clock.now().toISOString(), lease_until: clock.now().toISOString() });
      let failures = 0;
      for (let i = 0; i < WEBHOOK_MAX_ATTEMPTS + 2; i++) {
        clock.advance(1_000);
        failures += (await recoverWebhookDeliveries(deps, [broken])).failed;
      }
      expect(failures).toBe(WEBHOOK_MAX_ATTEMPTS - 1);
      expect(await s.webhookDeliveries.get(source, "g")).toMatchObject({ state: "received", attempts: WEBHOOK_MAX_ATTEMPTS });
    });
  });
}
