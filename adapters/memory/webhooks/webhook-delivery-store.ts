import type { WebhookTables } from "./tables.ts";
import type { WebhookDeliveryStore } from "../../../core/webhooks/ports.ts";

export class MemoryWebhookDeliveryStore implements WebhookDeliveryStore {
  constructor(private t: WebhookTables) {}

  async claim(source: string, deliveryId: string, at: string): Promise<boolean> {
    const key = `${source}:${deliveryId}`;
    if (this.t.webhookDeliveries.has(key)) return false;
    this.t.webhookDeliveries.set(key, at);
    return true;
  }

  async release(source: string, deliveryId: string): Promise<void> {
    this.t.webhookDeliveries.delete(`${source}:${deliveryId}`);
  }

  async prune(before: string): Promise<number> {
    let n = 0;
    for (const [key, at] of this.t.webhookDeliveries) {
      if (at < before) {
        this.t.webhookDeliveries.delete(key);
        n++;
      }
    }
    return n;
  }
}
