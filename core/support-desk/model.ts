import { type Static, Type } from "@sinclair/typebox";
import { literalUnion } from "../kernel/literal-union.ts";

/** Intercom's conversation states. */
export const SUPPORT_STATES = ["open", "closed", "snoozed"] as const;
export type SupportState = (typeof SUPPORT_STATES)[number];

/**
 * A support conversation of a workspace, as the support log keeps it: what the support desk's
 * (Intercom's) notifications about it said last, and how many were received.
 */
export const SupportConversation = Type.Object({
  id: Type.String({ description: "The conversation's id at the support desk (Intercom's)." }),
  state: literalUnion(SUPPORT_STATES, {
    description: "As the newest notification said (`open` until one says otherwise).",
  }),
  title: Type.Union([Type.String(), Type.Null()], { description: "The conversation's title, the newest one given; null: none yet." }),
  last_topic: Type.String({ description: "The topic of the newest notification, e.g. `conversation.admin.closed`." }),
  events: Type.Integer({ minimum: 1, description: "Notifications received about it (each counted once, redeliveries not)." }),
  updated_at: Type.String({ format: "date-time", description: "When the newest notification happened (Intercom's time)." }),
});
export type SupportConversation = Static<typeof SupportConversation>;

/** What one verified notification about a conversation says: the support log's input. */
export interface SupportNotification {
  /** The notification's id (`notif_…`): recorded with its effect, so it counts once. */
  notification_id: string;
  conversation_id: string;
  topic: string;
  /** The state it gives; null: it gives none (the current one stays). */
  state: SupportState | null;
  /** The title it gives; null: none (the current one stays). */
  title: string | null;
  /** When it happened (ISO): the newest notification decides state, title and last topic. */
  occurred_at: string;
}

/**
 * The conversation after `n` (pure; the memory and MongoDB stores apply it, PostgreSQL's SQL says
 * the same): one more event; state, title and last topic from `n` unless an older notification
 * arrived late (then only the count changes, and a title still missing is taken).
 */
export function applyNotification(prev: SupportConversation | null, n: SupportNotification): SupportConversation {
  if (!prev) {
    return {
      id: n.conversation_id,
      state: n.state ?? "open",
      title: n.title,
      last_topic: n.topic,
      events: 1,
      updated_at: n.occurred_at,
    };
  }
  if (n.occurred_at >= prev.updated_at) {
    return {
      id: prev.id,
      state: n.state ?? prev.state,
      title: n.title ?? prev.title,
      last_topic: n.topic,
      events: prev.events + 1,
      updated_at: n.occurred_at,
    };
  }
  return { ...prev, title: prev.title ?? n.title, events: prev.events + 1 };
}
