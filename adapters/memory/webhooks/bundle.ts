import type { WebhookStores } from "../../../core/webhooks/ports.ts";
import type { MemoryBundle } from "../bundle.ts";
import type { WebhookTables } from "./tables.ts";
import { MemoryWebhookDeliveryStore } from "./webhook-delivery-store.ts";
import { memoryWebhookTransfer } from "./transfer.ts";

export function memoryWebhookBundle(t: WebhookTables): MemoryBundle<WebhookStores> {
  return {
    transfer: memoryWebhookTransfer(t),
    stores: { webhookDeliveries: new MemoryWebhookDeliveryStore(t) },
    // Deliveries are global (a provider's ids, not a workspace's): nothing to purge.
    purgeWorkspace: () => {},
  };
}
