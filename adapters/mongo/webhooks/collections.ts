import type { Collection, Db } from "mongodb";
import type { WebhookDeliveryDoc } from "./webhook-delivery-store.ts";

/** Webhooks' collections of one database (their indexes: indexes.ts). */
export interface WebhookCollections {
  webhookDeliveries: Collection<WebhookDeliveryDoc>;
}

export const WEBHOOK_COLLECTION_NAMES = {
  webhookDeliveries: "webhook_deliveries",
} as const;

export function webhookCollections(db: Db): WebhookCollections {
  return {
    webhookDeliveries: db.collection<WebhookDeliveryDoc>(WEBHOOK_COLLECTION_NAMES.webhookDeliveries),
  };
}
