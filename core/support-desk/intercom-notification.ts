import { type Static, Type } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { isUuid } from "../kernel/ids.ts";
import { SUPPORT_STATES, type SupportNotification, type SupportState } from "./model.ts";

/**
 * Intercom's webhook notification, the provider's wire format (read here, not a body of our API):
 * `{"type":"notification_event","id":"notif_…","topic":"conversation.user.replied",
 * "created_at":1392731331,"data":{"type":"notification_event_data","item":{…the conversation…}}}`.
 * Unknown fields are allowed (Intercom adds them), the ones read are checked.
 */
const Envelope = Type.Object({
  type: Type.Literal("notification_event"),
  id: Type.String({ minLength: 1, maxLength: 255 }),
  topic: Type.String({ minLength: 1, maxLength: 200 }),
  created_at: Type.Optional(Type.Integer({ minimum: 0 })),
  data: Type.Object({ item: Type.Optional(Type.Unknown()) }),
});
export type IntercomNotification = Static<typeof Envelope>;

const ConversationItem = Type.Object({
  id: Type.Union([Type.String({ minLength: 1, maxLength: 100 }), Type.Integer({ minimum: 0 })]),
  state: Type.Optional(Type.Unknown()),
  title: Type.Optional(Type.Unknown()),
  updated_at: Type.Optional(Type.Unknown()),
  custom_attributes: Type.Optional(Type.Unknown()),
});

/** What the receiver reads from a signed body (core/webhooks' `readSignedEvent`); another shape: 400. */
export const IntercomNotificationEvent = {
  schema: Envelope,
  what: 'webhook body: expected an Intercom notification {"type":"notification_event","id","topic","data":{"item"}}',
};

export const isConversationTopic = (topic: string) => topic.startsWith("conversation.");

const unixToIso = (v: unknown): string | null =>
  typeof v === "number" && Number.isSafeInteger(v) && v > 0 && v < 1e11 ? new Date(v * 1000).toISOString() : null;

/**
 * The workspace a conversation notification names (`data.item.custom_attributes.workspace_id`, a
 * workspace id) and what it says of the conversation; null when it names none or its item is no
 * conversation (the notification is then ignored).
 */
export function conversationNotification(
  n: IntercomNotification,
  receivedAt: Date,
): { workspaceId: string; notification: SupportNotification } | null {
  const item = n.data.item;
  if (!Value.Check(ConversationItem, item)) return null;
  const attrs = item.custom_attributes;
  const workspaceId = typeof attrs === "object" && attrs !== null ? (attrs as Record<string, unknown>).workspace_id : undefined;
  if (typeof workspaceId !== "string" || !isUuid(workspaceId.toLowerCase())) return null;
  const state = typeof item.state === "string" && (SUPPORT_STATES as readonly string[]).includes(item.state)
    ? item.state as SupportState
    : null;
  const title = typeof item.title === "string" && item.title.trim() !== "" ? item.title.slice(0, 500) : null;
  return {
    workspaceId: workspaceId.toLowerCase(),
    notification: {
      notification_id: n.id,
      conversation_id: String(item.id),
      topic: n.topic,
      state,
      title,
      // The notification's time, else the item's, else arrival: the newest decides the state.
      occurred_at: unixToIso(n.created_at) ?? unixToIso(item.updated_at) ?? receivedAt.toISOString(),
    },
  };
}
