import type { SupportConversation } from "../../../core/support-desk/model.ts";

/** The in-memory tables of support (the adapter's composition shares one object of every module's tables). */
export class SupportTables {
  /** `${workspace_id}:${conversation_id}` → the conversation */
  supportConversations = new Map<string, SupportConversation & { workspace_id: string }>();
  /** `${workspace_id}:${notification_id}` → the notification's conversation, recorded with its effect */
  supportNotifications = new Map<string, { workspace_id: string; conversation_id: string; received_at: string }>();
}
