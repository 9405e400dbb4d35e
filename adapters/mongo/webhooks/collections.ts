import type { Collection, Db } from "mongodb";
import type { WebhookDeliveryDoc, WebhookLeaseDoc } from "./webhook-delivery-store.ts";

/** Webhooks' collections of one database (their indexes: indexes.ts). */
export interface WebhookCollections {
  webhookDeliveries: Collection<WebhookDeliveryDoc>;
  webhookLeases: Collection<WebhookLeaseDoc>;
}

export const WEBHOOK_COLLECTION_NAMES = {
  webhookDeliveries: "webhook_deliveries",
  webhookLeases: "webhook_delivery_leases",
} as const;

export function webhookCollections(db: Db): WebhookCollections {
  return {
    webhookDeliveries: db.collection<WebhookDeliveryDoc>(WEBHOOK_COLLECTION_NAMES.webhookDeliveries),
    webhookLeases: db.collection<WebhookLeaseDoc>(WEBHOOK_COLLECTION_NAMES.webhookLeases),
  };
}
