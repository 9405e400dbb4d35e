import { Type } from "@sinclair/typebox";
import { Elysia } from "elysia";
import { AppError } from "../../../core/kernel/mod.ts";
import {
  listSupportConversations,
  receiveSupportWebhook,
  SupportConversationPage,
  SupportWebhookResult,
} from "../../../core/support-desk/mod.ts";
import { SlugSchema } from "../../../core/workspaces/mod.ts";
import type { ServerDeps } from "../../deps.ts";
import { signedWebhookRoute } from "../../http/signed-webhook-route.ts";
import { authenticated, errors, PageQuery, publicOperation, strict } from "../../http/schemas.ts";
import { workspaceScope } from "../../http/workspace-scope.ts";

const SupportWebhookHeaders = Type.Object({
  "x-hub-signature": Type.Optional(
    Type.String({
      description:
        "`sha1=` + hex HMAC-SHA1 of the raw body under SUPPORT_WEBHOOK_SECRET (the Intercom app's client secret). Missing or wrong: 401.",
    }),
  ),
});

const NOT_CONFIGURED = "Support webhook is not configured: set SUPPORT_WEBHOOK_SECRET to enable it";

/**
 * The support desk's (Intercom's) webhook receiver, public and signed (`HEAD` for Intercom's URL
 * check, `POST` for notifications), and the workspace's support log for owners and admins
 * (docs/decisions/035-support-webhook.md).
 */
export function supportRoutes(deps: ServerDeps) {
  const core = deps.core;
  const webhook = new Elysia({ name: "support-webhook" })
    .head(
      "/webhooks/support",
      ({ set }) => {
        if (!deps.config.supportWebhookSecret) throw new AppError("NOT_FOUND", NOT_CONFIGURED);
        set.status = 200;
        return "";
      },
      {
        response: { 200: Type.String({ maxLength: 0, description: "No body." }), ...errors(404) },
        detail: {
          ...publicOperation,
          tags: ["webhooks"],
          summary: "Support webhook URL check (public)",
          description:
            "Intercom checks a webhook URL with a `HEAD` request when it is saved: 200, no body, while SUPPORT_WEBHOOK_SECRET is set; 404 while it is not (the receiver is off).",
        },
      },
    )
    .use(signedWebhookRoute({
      name: "support-webhook-receiver",
      path: "/webhooks/support",
      secret: () => deps.config.supportWebhookSecret,
      notConfigured: NOT_CONFIGURED,
      headers: SupportWebhookHeaders,
      result: SupportWebhookResult,
      receive: (secret, { headers, body }) => receiveSupportWebhook(core, secret, { signature: headers["x-hub-signature"] ?? null, body }),
      detail: {
        summary: "Support (Intercom) webhook receiver (public)",
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: {
                type: "object",
                required: ["type", "id", "topic", "data"],
                description:
                  "An Intercom notification, read as raw bytes (the signature covers them). Other fields Intercom sends (`app_id`, `delivery_attempts`, …) are allowed.",
                properties: {
                  type: { type: "string", enum: ["notification_event"] },
                  id: { type: "string", description: "The notification's id (`notif_…`): a redelivery takes effect once." },
                  topic: {
                    type: "string",
                    description: "`ping`, `conversation.*` (e.g. `conversation.user.replied`); others are ignored.",
                  },
                  created_at: {
                    type: "integer",
                    description: "Unix seconds: when it happened; the newest notification sets a conversation's state.",
                  },
                  data: {
                    type: "object",
                    properties: {
                      item: {
                        type: "object",
                        description:
                          "The conversation: `id`, `state` (`open`, `closed`, `snoozed`), `title`, `updated_at`, and `custom_attributes.workspace_id`, the id of the workspace it belongs to here.",
                      },
                    },
                  },
                },
              },
            },
          },
        },
        description:
          "Intercom's webhooks. Public, authenticated by `X-Hub-Signature` (`sha1=` + hex HMAC-SHA1 of the raw body under SUPPORT_WEBHOOK_SECRET, compared in constant time): missing or wrong is 401 `INVALID_SIGNATURE`, nothing changed. Not configured: 404. A body that is not an Intercom notification (`type` `notification_event`, `id`, `topic`, `data`): 400. The answer is `{received: true, outcome, notification_id, topic}`: `ping` for Intercom's test notification; `processed` for a `conversation.*` notification whose `data.item.custom_attributes.workspace_id` names a workspace: its support log counts the notification and takes the conversation's state, title and topic from the newest (`GET /workspaces/{slug}/support/conversations`), and `support.conversation_updated` is emitted; `duplicate` for a notification id received before (nothing done); `ignored` for other topics, or a conversation naming no workspace known here.",
      },
    }));

  const log = workspaceScope(deps, "support").get(
    "/support/conversations",
    ({ principal, workspace, query }) => listSupportConversations(core, principal, workspace, query),
    {
      params: Type.Object({ slug: SlugSchema }, strict),
      query: PageQuery,
      response: { 200: SupportConversationPage, ...errors(400, 401, 403, 404) },
      detail: {
        ...authenticated,
        tags: ["support"],
        summary: "List support conversations (owner/admin)",
        description:
          "The workspace's support-desk (Intercom) conversations, as the notifications received by `POST /webhooks/support` left them: `state`, `title` and `last_topic` from the newest, `events` = notifications received (each once). Newest first (`updated_at`, then `id`). `limit` 1–200 (default 50), `offset`. Owners and admins; a member is 403.",
      },
    },
  );

  return new Elysia({ name: "support" }).use(webhook).use(log);
}
