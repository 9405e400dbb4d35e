import { billingWebhookHandler } from "../core/billing/webhook.ts";
import { codeHostWebhookHandler } from "../core/code-context/code-host-webhook.ts";
import type { ComposedDeps } from "../core/deps.ts";
import { identityWebhookHandler } from "../core/identity/identity-webhook.ts";
import { monitorWebhookHandler } from "../core/radar/monitor-webhook.ts";
import { supportWebhookHandler } from "../core/support-desk/support-webhook.ts";
import { recoverWebhookDeliveries, type SweepReport, type WebhookHandler } from "../core/webhooks/mod.ts";

/**
 * Every inbound webhook source's handler (docs/decisions/042-webhook-inbox.md): what the recovery
 * sweep applies a delivery left unfinished with. A new receiver adds its handler here.
 */
export const WEBHOOK_HANDLERS: readonly WebhookHandler<ComposedDeps>[] = [
  identityWebhookHandler,
  billingWebhookHandler,
  supportWebhookHandler,
  codeHostWebhookHandler,
  monitorWebhookHandler,
];

/** The webhook inbox's recovery sweep, as a consuming process runs it (beside the radar sweep). */
export function webhookSweep(
  deps: ComposedDeps,
  log: (msg: string, fields: Record<string, unknown>) => void,
): Promise<SweepReport> {
  return recoverWebhookDeliveries(
    deps,
    WEBHOOK_HANDLERS,
    (d, e) =>
      log("webhook delivery failed again", { source: d.source, delivery_id: d.delivery_id, attempts: d.attempts, error: String(e) }),
  );
}
