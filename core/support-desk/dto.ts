import { type Static, Type } from "@sinclair/typebox";
import { literalUnion } from "../kernel/literal-union.ts";
import { SupportConversation } from "./model.ts";

/** A conversation as `GET /workspaces/{slug}/support/conversations` lists it: the record as kept. */
export const SupportConversationView = SupportConversation;
export type SupportConversationView = SupportConversation;

export const SupportConversationPage = Type.Object({
  conversations: Type.Array(SupportConversationView),
  total: Type.Integer({ minimum: 0, description: "Conversations of the workspace, over all pages." }),
  has_more: Type.Boolean(),
});
export type SupportConversationPage = Static<typeof SupportConversationPage>;

export const SUPPORT_WEBHOOK_OUTCOMES = ["processed", "duplicate", "ignored", "ping"] as const;
export type SupportWebhookOutcome = (typeof SUPPORT_WEBHOOK_OUTCOMES)[number];

/** The answer of `POST /webhooks/support` (200). */
export const SupportWebhookResult = Type.Object({
  received: Type.Literal(true),
  outcome: literalUnion(SUPPORT_WEBHOOK_OUTCOMES, {
    description:
      "`processed`: a conversation notification applied to its workspace's support log; `duplicate`: this notification id was received before, nothing done; `ignored`: another topic, no `custom_attributes.workspace_id`, or a workspace unknown here; `ping`: Intercom's test notification.",
  }),
  notification_id: Type.String({ description: "The notification's `id`." }),
  topic: Type.String({ description: "The notification's `topic`." }),
});
export type SupportWebhookResult = Static<typeof SupportWebhookResult>;
