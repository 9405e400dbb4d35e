import type { TransferKind } from "../../../core/kernel/store-transfer.ts";
import type { WebhookDelivery } from "../../../core/webhooks/ports.ts";
import { WEBHOOK_KINDS } from "../../../core/webhooks/transfer.ts";
import { memoryKind } from "../transfer-kind.ts";
import type { WebhookTables } from "./tables.ts";

/** Webhooks' kinds on the memory adapter: the inbox's rows are the documents. */
export function memoryWebhookTransfer(t: WebhookTables): TransferKind[] {
  const keyOf = (d: WebhookDelivery) => `${d.source}:${d.delivery_id}`;
  return [
    memoryKind<WebhookDelivery>({
      spec: WEBHOOK_KINDS.deliveries,
      docs: () => [...t.webhookDeliveries.values()],
      has: (d) => t.webhookDeliveries.has(keyOf(d)),
      put: (d) => void t.webhookDeliveries.set(keyOf(d), d),
    }),
  ];
}
