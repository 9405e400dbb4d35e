import type { IndexDescription } from "mongodb";
import type { SUPPORT_COLLECTION_NAMES } from "./collections.ts";

/** Support's indexes, by collection (the tenancy rule: ../indexes.ts). */
export const SUPPORT_INDEXES: Record<keyof typeof SUPPORT_COLLECTION_NAMES, IndexDescription[]> = {
  // `_id` (`<workspace>:<conversation>:<seq>`) is the lock of each step; a notification counts once
  // per workspace; the highest step of a conversation is its state.
  supportEvents: [
    { key: { workspace_id: 1, notification_id: 1 }, name: "workspace_notification_unique", unique: true },
    { key: { workspace_id: 1, conversation_id: 1, seq: -1 }, name: "workspace_conversation_seq" },
  ],
  // Lists: newest first.
  supportConversations: [{ key: { workspace_id: 1, updated_at: -1, id: -1 }, name: "workspace_newest" }],
};
