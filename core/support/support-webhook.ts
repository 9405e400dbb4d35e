import { emit } from "../events/mod.ts";
import { AppError } from "../kernel/errors.ts";
import { verifyHubSignatureSha1 } from "../webhooks/mod.ts";
import type { SupportWebhookResult } from "./dto.ts";
import { conversationNotification, isConversationTopic, parseIntercomNotification } from "./intercom-notification.ts";
import type { SupportDeps } from "./ports.ts";

/** The delivery store's source of support notifications. */
export const SUPPORT_WEBHOOK_SOURCE = "support";

export interface SupportDelivery {
  /** `X-Hub-Signature`: `sha1=` + hex HMAC-SHA1 of the raw body. */
  signature: string | null;
  body: Uint8Array;
}

/**
 * The support desk's (Intercom's) webhook (docs/decisions/035-support-webhook.md). The signature
 * is checked over the raw body first (401 `INVALID_SIGNATURE`, nothing changed); `ping` answers;
 * a `conversation.*` notification whose conversation names a workspace of this service
 * (`custom_attributes.workspace_id`) is applied to that workspace's support log and emits
 * `support.conversation_updated`; anything else is ignored. The notification id is claimed in the
 * delivery store first (a redelivery: `duplicate`, nothing done; released if the effect fails),
 * and the support log records it with the effect, so it counts once even after the claim is pruned.
 */
export async function receiveSupportWebhook(deps: SupportDeps, secret: string, d: SupportDelivery): Promise<SupportWebhookResult> {
  if (!(await verifyHubSignatureSha1(secret, d.body, d.signature))) {
    throw new AppError(
      "INVALID_SIGNATURE",
      "Invalid webhook signature: X-Hub-Signature must be sha1= and the hex HMAC-SHA1 of the raw body under SUPPORT_WEBHOOK_SECRET",
    );
  }
  const n = parseIntercomNotification(d.body);
  const answer = (outcome: SupportWebhookResult["outcome"]): SupportWebhookResult => ({
    received: true,
    outcome,
    notification_id: n.id,
    topic: n.topic,
  });
  if (n.topic === "ping") return answer("ping");
  if (!isConversationTopic(n.topic)) return answer("ignored");
  const now = deps.clock.now();
  const target = conversationNotification(n, now);
  if (!target) return answer("ignored");
  const workspace = await deps.stores.workspaces.getById(target.workspaceId);
  if (!workspace) return answer("ignored");

  const deliveries = deps.stores.webhookDeliveries;
  if (!(await deliveries.claim(SUPPORT_WEBHOOK_SOURCE, n.id, now.toISOString()))) return answer("duplicate");
  let recorded;
  try {
    recorded = await deps.stores.supportLog.record(workspace.id, target.notification, now.toISOString());
  } catch (e) {
    // Nothing kept of a delivery that failed: Intercom's retry applies it.
    await deliveries.release(SUPPORT_WEBHOOK_SOURCE, n.id).catch(() => {});
    throw e;
  }
  if (recorded.outcome === "duplicate") return answer("duplicate");
  if (recorded.outcome === "no_workspace") return answer("ignored");
  const c = recorded.conversation;
  await emit(deps, workspace.id, "support.conversation_updated", null, {
    conversation_id: c.id,
    topic: n.topic,
    state: c.state,
    title: c.title,
    events: c.events,
  });
  return answer("processed");
}
