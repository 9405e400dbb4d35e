import type { WebhookCollections } from "./collections.ts";
import type { WebhookDeliveryStore } from "../../../core/webhooks/ports.ts";
import { isDuplicateKey } from "../duplicate-key.ts";

/** A webhook delivery seen: `_id` is `<source>:<delivery_id>`, so its insert is the claim. */
export interface WebhookDeliveryDoc {
  _id: string;
  source: string;
  delivery_id: string;
  received_at: string;
}

/** The unique `_id` decides: of concurrent claims, exactly one insert succeeds (ADR 005). */
export class MongoWebhookDeliveryStore implements WebhookDeliveryStore {
  constructor(private readonly c: WebhookCollections) {}

  async claim(source: string, deliveryId: string, at: string): Promise<boolean> {
    try {
      await this.c.webhookDeliveries.insertOne({ _id: `${source}:${deliveryId}`, source, delivery_id: deliveryId, received_at: at });
      return true;
    } catch (e) {
      if (isDuplicateKey(e)) return false;
      throw e;
    }
  }

  async release(source: string, deliveryId: string): Promise<void> {
    await this.c.webhookDeliveries.deleteOne({ _id: `${source}:${deliveryId}` });
  }

  async prune(before: string): Promise<number> {
    const r = await this.c.webhookDeliveries.deleteMany({ received_at: { $lt: before } });
    return r.deletedCount;
  }
}
