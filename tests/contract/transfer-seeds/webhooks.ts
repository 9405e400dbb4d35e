import { stamp, unique } from "../fixtures.ts";
import type { TransferSeeder } from "./seeder.ts";

const seeded = new Map<string, { applied: string; unfinished: string; source: string }>();
const plus = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();

/**
 * Webhooks' kinds (core/webhooks/transfer.ts): an applied delivery and an unfinished one (taken a
 * second time, then released). On the copy the applied one is still a duplicate of its
 * redelivery, and the unfinished one is still the recovery sweep's, with its attempts.
 */
export const webhookSeeder: TransferSeeder = {
  module: "webhooks",
  async seed(s, ws) {
    const source = "stripe";
    const applied = unique("evt_ü"), unfinished = unique("evt");
    const at = stamp();
    await s.webhookDeliveries.record({
      source,
      delivery_id: applied,
      payload: '{"type":"invoice.paid","note":"Grüße ✓"}',
      at,
      lease_until: plus(at, 60_000),
    });
    await s.webhookDeliveries.markApplied(source, applied, "processed", plus(at, 1_000));
    const at2 = stamp();
    await s.webhookDeliveries.record({ source, delivery_id: unfinished, payload: "{}", at: at2, lease_until: plus(at2, 1_000) });
    const taken = await s.webhookDeliveries.take(source, unfinished, plus(at2, 2_000), plus(at2, 60_000));
    if (taken?.attempts !== 2) throw new Error("seed: delivery not taken again");
    await s.webhookDeliveries.release(source, unfinished, 2, plus(at2, 3_000));
    seeded.set(ws.workspace.id, { applied, unfinished, source });
  },
  async verify(source, target, ws, expect) {
    const x = seeded.get(ws.workspace.id)!;
    for (const id of [x.applied, x.unfinished]) {
      expect(await target.webhookDeliveries.get(x.source, id)).toEqual(await source.webhookDeliveries.get(x.source, id));
    }
    const now = new Date().toISOString();
    const again = await target.webhookDeliveries.record({
      source: x.source,
      delivery_id: x.applied,
      payload: "other",
      at: now,
      lease_until: now,
    });
    expect({ kind: again.kind, payload: again.delivery.payload }).toEqual({
      kind: "applied",
      payload: '{"type":"invoice.paid","note":"Grüße ✓"}',
    });
    const due = (await target.webhookDeliveries.unfinished(now, 5, 1000)).find((d) => d.delivery_id === x.unfinished);
    expect(due?.attempts).toBe(2);
    expect(await target.webhookDeliveries.take(x.source, x.unfinished, now, plus(now, 60_000))).not.toBeNull();
  },
};
