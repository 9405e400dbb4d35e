import { emit } from "../events/mod.ts";
import { deliverOnce, readSignedEvent, type SignedBy, type WebhookHandler } from "../webhooks/mod.ts";
import type { SupportWebhookResult } from "./dto.ts";
import type { SupportNotification } from "./model.ts";
import { conversationNotification, IntercomNotificationEvent, isConversationTopic } from "./intercom-notification.ts";
import type { SupportDeps } from "./ports.ts";

/** The delivery store's source of support notifications. */
export const SUPPORT_WEBHOOK_SOURCE = "support";
const SIGNED_BY: SignedBy = { scheme: "hub-sha1", setting: "SUPPORT_WEBHOOK_SECRET" };

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
 * `support.conversation_updated`; anything else is ignored. The notification goes through the
 * webhook inbox (ADR 042: recorded with what it says, applied, marked; a redelivery of an applied
 * one is `duplicate`), and the support log records its id with the effect, so it counts once even
 * when applied again (a crash, a redelivery after the inbox forgot it).
 */
export async function receiveSupportWebhook(deps: SupportDeps, secret: string, d: SupportDelivery): Promise<SupportWebhookResult> {
  const now = deps.clock.now();
  const n = readSignedEvent(SIGNED_BY, secret, { ...d, receivedAt: now }, IntercomNotificationEvent);
  const answer = (outcome: SupportWebhookResult["outcome"]): SupportWebhookResult => ({
    received: true,
    outcome,
    notification_id: n.id,
    topic: n.topic,
  });
  if (n.topic === "ping") return answer("ping");
  if (!isConversationTopic(n.topic)) return answer("ignored");
  const target = conversationNotification(n, now);
  if (!target) return answer("ignored");
  const workspace = await deps.stores.workspaces.getById(target.workspaceId);
  if (!workspace) return answer("ignored");

  const recorded: Target = { workspaceId: workspace.id, notification: target.notification };
  const outcome = await deliverOnce(
    deps,
    SUPPORT_WEBHOOK_SOURCE,
    n.id,
    JSON.stringify(recorded),
    (p) => applyRecordedNotification(deps, p),
    (o) => o,
  );
  return answer(outcome);
}

interface Target {
  workspaceId: string;
  notification: SupportNotification;
}

/** Applies a recorded notification to its workspace's support log (once: the log keeps its id). */
async function applyRecordedNotification(deps: SupportDeps, payload: string): Promise<"processed" | "duplicate" | "ignored"> {
  const { workspaceId, notification } = JSON.parse(payload) as Target;
  const recorded = await deps.stores.supportLog.record(workspaceId, notification, deps.clock.now().toISOString());
  if (recorded.outcome === "duplicate") return "duplicate";
  if (recorded.outcome === "no_workspace") return "ignored";
  const c = recorded.conversation;
  await emit(deps, workspaceId, "support.conversation_updated", null, {
    conversation_id: c.id,
    topic: notification.topic,
    state: c.state,
    title: c.title,
    events: c.events,
  });
  return "processed";
}

/** The recovery sweep's way in (ADR 042). */
export const supportWebhookHandler: WebhookHandler<SupportDeps> = {
  source: SUPPORT_WEBHOOK_SOURCE,
  apply: (deps, payload) => applyRecordedNotification(deps, payload),
};
