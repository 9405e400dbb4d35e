import type { TransferKindSpec } from "../kernel/transfer-kind-spec.ts";
import type { SupportConversation } from "./model.ts";

/**
 * The support log's kinds as they move between stores (ADR 067): each workspace's conversations
 * as the notifications left them, then the notifications recorded (so a copied one is still a
 * duplicate, and the next one counts on from the copied `events`).
 */
export const SUPPORT_KINDS = {
  conversations: { name: "support-desk.conversations", tenant: true, key: ["id"] },
  notifications: { name: "support-desk.notifications", tenant: true, key: ["notification_id"] },
} as const satisfies Record<string, TransferKindSpec>;

export type SupportConversationDoc = SupportConversation & { workspace_id: string };

/** A notification recorded for a workspace: its id, its conversation, when it was received. */
export interface SupportNotificationDoc {
  workspace_id: string;
  notification_id: string;
  conversation_id: string;
  received_at: string;
}
