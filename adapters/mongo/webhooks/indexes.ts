import type { IndexDescription } from "mongodb";
import type { WEBHOOK_COLLECTION_NAMES } from "./collections.ts";

/** Webhooks' indexes, by collection (the tenancy rule and its exceptions: ../indexes.ts). */
export const WEBHOOK_INDEXES: Record<keyof typeof WEBHOOK_COLLECTION_NAMES, IndexDescription[]> = {
  // Global: `_id` is `<source>:<delivery_id>` (the claim is its insert); pruning by age.
  webhookDeliveries: [{ key: { received_at: 1 }, name: "received_at" }],
};
