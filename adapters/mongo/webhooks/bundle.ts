import type { WebhookStores } from "../../../core/webhooks/ports.ts";
import type { WebhookCollections } from "./collections.ts";
import { type MongoBundle } from "../bundle.ts";
import { MongoWebhookDeliveryStore } from "./webhook-delivery-store.ts";
import { mongoWebhookTransfer } from "./transfer.ts";

export function mongoWebhookBundle(c: WebhookCollections): MongoBundle<WebhookStores> {
  return {
    transfer: mongoWebhookTransfer(c),
    stores: {
      webhookDeliveries: new MongoWebhookDeliveryStore(c),
    },
    // Deliveries are global (a provider's ids, not a workspace's): nothing to purge.
    purgeWorkspace: async () => {},
  };
}
