import type { WebhookDelivery } from "../../../core/webhooks/ports.ts";

/** The in-memory tables of webhooks (the adapter's composition shares one object of every module's tables). */
export class WebhookTables {
  /** `${source}:${delivery_id}` → the delivery. Global, like workspaces. */
  webhookDeliveries = new Map<string, WebhookDelivery>();
}
