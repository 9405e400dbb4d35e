import type { IndexDescription } from "mongodb";
import type { WEBHOOK_COLLECTION_NAMES } from "./collections.ts";

/** Webhooks' indexes, by collection (the tenancy rule and its exceptions: ../indexes.ts). */
export const WEBHOOK_INDEXES: Record<keyof typeof WEBHOOK_COLLECTION_NAMES, IndexDescription[]> = {
  // Global: `_id` is `<source>:<delivery_id>` (recording is its insert); the recovery sweep reads
  // unfinished ones oldest first; pruning by age.
  webhookDeliveries: [
    { key: { state: 1, received_at: 1 }, name: "state_received_at" },
    { key: { received_at: 1 }, name: "received_at" },
    // The transfer reads deliveries in (source, delivery_id) order, which `_id`'s order is not.
    { key: { source: 1, delivery_id: 1 }, name: "source_delivery" },
  ],
  // `_id` is `<source>:<delivery_id>:<attempt>` (taking a lease is its insert); a delivery's latest attempt; pruning by age.
  webhookLeases: [
    { key: { delivery: 1, n: -1 }, name: "delivery_n" },
    { key: { received_at: 1 }, name: "received_at" },
  ],
};
