import type { TransferKind } from "../../../core/kernel/store-transfer.ts";
import type { WebhookDelivery } from "../../../core/webhooks/ports.ts";
import { WEBHOOK_KINDS } from "../../../core/webhooks/transfer.ts";
import { insertMissing, mongoKind } from "../transfer-kind.ts";
import type { WebhookCollections } from "./collections.ts";
import { toDelivery, type WebhookLeaseDoc } from "./webhook-delivery-store.ts";

/**
 * Webhooks' kinds over the inbox: a delivery document with its latest lease (`lease_until`,
 * `attempts`); written back as the delivery and that attempt's lease, so the next taker takes
 * attempt `attempts + 1` as on the source.
 */
export function mongoWebhookTransfer(c: WebhookCollections): TransferKind[] {
  return [
    mongoKind({
      spec: WEBHOOK_KINDS.deliveries,
      collection: c.webhookDeliveries,
      keyFields: ["source", "delivery_id"],
      toDocs: async (page) => {
        const latest = new Map<string, WebhookLeaseDoc>();
        for (const l of await c.webhookLeases.find({ delivery: { $in: page.map((d) => d._id) } }).toArray()) {
          if ((latest.get(l.delivery)?.n ?? 0) < l.n) latest.set(l.delivery, l);
        }
        return page.map((d) => toDelivery(d, latest.get(d._id)));
      },
      write: async (docs: WebhookDelivery[]) => {
        const key = (d: WebhookDelivery) => `${d.source}:${d.delivery_id}`;
        const added = new Set(
          (await insertMissing(
            c.webhookDeliveries,
            docs.map((d) => ({
              _id: key(d),
              source: d.source,
              delivery_id: d.delivery_id,
              payload: d.payload,
              state: d.state,
              received_at: d.received_at,
              applied_at: d.applied_at,
              outcome: d.outcome,
            })),
          )).map((d) => d._id),
        );
        await insertMissing(
          c.webhookLeases,
          docs.filter((d) => added.has(key(d))).map((d) => ({
            _id: `${key(d)}:${d.attempts}`,
            delivery: key(d),
            n: d.attempts,
            lease_until: d.lease_until,
            received_at: d.received_at,
          })),
        );
        return added.size;
      },
    }),
  ];
}
