/**
 * Inbound webhook deliveries seen, so a redelivery (the same delivery id, sent again by the
 * provider after a timeout or by hand) takes effect once. Global, not tenant data: a delivery
 * arrives before any workspace is known and may concern several workspaces; the key is
 * (source, delivery_id), the one webhook lookup that does not start with `workspace_id`.
 */
export interface WebhookDeliveryStore {
  /**
   * Records the delivery; true the first time, false when it was claimed before (also under
   * concurrent calls: exactly one caller gets true).
   */
  claim(source: string, deliveryId: string, at: string): Promise<boolean>;
  /** Forgets a claim, so a delivery whose processing failed can be redelivered. */
  release(source: string, deliveryId: string): Promise<void>;
  /** Forgets deliveries received before `before`; returns how many. */
  prune(before: string): Promise<number>;
}

/** Webhooks' stores, one bundle per adapter (adapters/<adapter>/webhooks/). */
export interface WebhookStores {
  webhookDeliveries: WebhookDeliveryStore;
}
