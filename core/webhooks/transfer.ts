import type { TransferKindSpec } from "../kernel/transfer-kind-spec.ts";

/**
 * Webhooks' kinds as they move between stores (ADR 067): the inbox's deliveries (`WebhookDelivery`,
 * payload, state, lease and attempts included), global like the inbox. A copied delivery is still
 * a duplicate to its redelivery, and an unfinished one is still the recovery sweep's.
 */
export const WEBHOOK_KINDS = {
  deliveries: { name: "webhooks.deliveries", tenant: false, key: ["source", "delivery_id"] },
} as const satisfies Record<string, TransferKindSpec>;
