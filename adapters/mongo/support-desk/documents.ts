import type { SupportConversation, SupportState } from "../../../core/support-desk/model.ts";

/**
 * One notification received about a conversation, holding the conversation as it left it:
 * `_id` `<workspace_id>:<conversation_id>:<seq>`, `seq` = the conversation's events after it. Its
 * insert is the lock of that step (one writer per `seq`) and records the notification id (unique
 * per workspace) in the same write: these documents are the support log's truth.
 */
export interface SupportEventDoc {
  _id: string;
  workspace_id: string;
  conversation_id: string;
  seq: number;
  notification_id: string;
  state: SupportState;
  title: string | null;
  last_topic: string;
  updated_at: string;
  received_at: string;
}

/** The conversation as its highest event left it (`_id` `<workspace_id>:<conversation_id>`): what lists read. */
export interface SupportConversationDoc {
  _id: string;
  workspace_id: string;
  id: string;
  state: SupportState;
  title: string | null;
  last_topic: string;
  events: number;
  updated_at: string;
}

export const conversationOfEvent = (d: SupportEventDoc): SupportConversation => ({
  id: d.conversation_id,
  state: d.state,
  title: d.title,
  last_topic: d.last_topic,
  events: d.seq,
  updated_at: d.updated_at,
});

export const conversationOfDoc = (d: SupportConversationDoc): SupportConversation => ({
  id: d.id,
  state: d.state,
  title: d.title,
  last_topic: d.last_topic,
  events: d.events,
  updated_at: d.updated_at,
});
