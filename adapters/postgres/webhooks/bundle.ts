import type { WebhookStores } from "../../../core/webhooks/ports.ts";
import type { SqlBundle } from "../bundle.ts";
import type { SqlDriver } from "../driver.ts";
import { PostgresWebhookDeliveryStore } from "./webhook-delivery-store.ts";
import { sqlWebhookTransfer } from "./transfer.ts";

export function sqlWebhookBundle(driver: SqlDriver): SqlBundle<WebhookStores> {
  return {
    transfer: sqlWebhookTransfer(driver),
    stores: {
      webhookDeliveries: new PostgresWebhookDeliveryStore(driver),
    },
  };
}
