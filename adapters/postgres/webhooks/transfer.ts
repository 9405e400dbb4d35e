import type { TransferKind } from "../../../core/kernel/store-transfer.ts";
import type { WebhookDelivery } from "../../../core/webhooks/ports.ts";
import { WEBHOOK_KINDS } from "../../../core/webhooks/transfer.ts";
import type { SqlDriver } from "../driver.ts";
import { plainColumns, sqlKind } from "../transfer-kind.ts";
import { toDelivery } from "./webhook-delivery-store.ts";

/** Webhooks' kinds over `webhook_deliveries` (migrations 006, 025). */
export function sqlWebhookTransfer(db: SqlDriver): TransferKind[] {
  return [
    sqlKind<WebhookDelivery>(db, {
      spec: WEBHOOK_KINDS.deliveries,
      table: "webhook_deliveries",
      select: "t.source, t.delivery_id, t.payload, t.state, t.received_at, t.lease_until, t.attempts, t.applied_at, t.outcome",
      toDoc: toDelivery,
      keyColumns: [{ name: "source", text: true }, { name: "delivery_id", text: true }],
      columns: plainColumns<WebhookDelivery>(
        "source",
        "delivery_id",
        "payload",
        "state",
        "received_at",
        "lease_until",
        "attempts",
        "applied_at",
        "outcome",
      ),
    }),
  ];
}
