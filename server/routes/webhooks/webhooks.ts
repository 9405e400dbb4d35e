import { Type } from "@sinclair/typebox";
import { CodeHostWebhookResult, receiveCodeHostWebhook } from "../../../core/code-context/mod.ts";
import { MonitorWebhookResult, receiveMonitorWebhook } from "../../../core/radar/mod.ts";
import { IdentityWebhookResult, receiveIdentityWebhook } from "../../../core/identity/mod.ts";
import { BillingWebhookResult, receiveBillingWebhook } from "../../../core/billing/mod.ts";
import type { ServerDeps } from "../../deps.ts";
import { signedWebhookRoute } from "../../http/signed-webhook-route.ts";

const WebhookHeaders = Type.Object({
  "x-hub-signature-256": Type.Optional(
    Type.String({ description: "`sha256=` + hex HMAC-SHA256 of the raw body under CODE_HOST_WEBHOOK_SECRET. Missing or wrong: 401." }),
  ),
  "x-github-event": Type.Optional(Type.String({ description: "`push` or `ping`; other events are acknowledged and ignored." })),
  "x-github-delivery": Type.Optional(Type.String({ description: "The delivery id: a delivery sent again takes effect once." })),
});

/**
 * Inbound webhooks: public (no API key), each authenticated by its provider's signature over the
 * raw body. Each is a `signedWebhookRoute` (http/signed-webhook-route.ts): its body arrives as the
 * bytes sent, and core parses them only after the check (`readSignedEvent`, ADR 060).
 */
export function webhookRoutes(deps: ServerDeps) {
  return signedWebhookRoute({
    name: "webhooks",
    path: "/webhooks/code-host",
    secret: () => deps.config.codeHostWebhookSecret,
    notConfigured: "Code-host webhook is not configured: set CODE_HOST_WEBHOOK_SECRET to enable it",
    headers: WebhookHeaders,
    result: CodeHostWebhookResult,
    receive: (secret, { headers, body, contentType }) =>
      receiveCodeHostWebhook(deps.core, secret, {
        event: headers["x-github-event"] ?? null,
        deliveryId: headers["x-github-delivery"] ?? null,
        signature: headers["x-hub-signature-256"] ?? null,
        contentType,
        body,
      }),
    detail: {
      summary: "Code-host webhook receiver (public)",
      requestBody: {
        required: true,
        content: {
          "application/json": {
            schema: {
              type: "object",
              description:
                "The provider's event as sent (read as raw bytes: the signature covers them). A push uses `ref`, `after`, `deleted`, `repository.full_name` and `commits[].added/modified/removed`.",
            },
          },
          "application/x-www-form-urlencoded": {
            schema: { type: "object", properties: { payload: { type: "string", description: "The same JSON event." } } },
          },
        },
      },
      description:
        "For a GitHub App or repository webhook (Gitea and Forgejo send the same format), JSON or form-encoded. Public, authenticated by `X-Hub-Signature-256` (HMAC-SHA256 of the raw body with CODE_HOST_WEBHOOK_SECRET, compared in constant time): a missing or wrong signature is 401 and changes nothing. Not configured (no secret): 404. `ping`: 200. `push` to a linked repo's default branch (matched by `repository.full_name` in every workspace that links it): its file index is refreshed (a background job) and the topics anchored to the changed files (`commits[].added/modified/removed`) are marked drifted with the pushed commit (`after`). A delivery id (`X-GitHub-Delivery`) seen before answers 200 `duplicate` and does nothing again.",
    },
  });
}

const StandardWebhookHeaders = Type.Object({
  "webhook-id": Type.Optional(Type.String({ description: "The delivery's id: a delivery sent again takes effect once." })),
  "webhook-timestamp": Type.Optional(Type.String({ description: "Unix seconds; more than 300 s from now is a 401." })),
  "webhook-signature": Type.Optional(
    Type.String({
      description:
        '`v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>">` under RADAR_WEBHOOK_SECRET\'s key (`whsec_<base64>`); several may be sent, space-separated.',
    }),
  ),
});

/** `POST /webhooks/radar/monitor`: a data provider's monitor events (Standard Webhooks). */
export function radarWebhookRoutes(deps: ServerDeps) {
  return signedWebhookRoute({
    name: "radar-webhook",
    path: "/webhooks/radar/monitor",
    secret: () => deps.config.radarWebhookSecret,
    notConfigured: "Radar monitor webhook is not configured: set RADAR_WEBHOOK_SECRET to enable it",
    headers: StandardWebhookHeaders,
    result: MonitorWebhookResult,
    receive: (secret, { headers, body }) =>
      receiveMonitorWebhook(deps.core, secret, {
        id: headers["webhook-id"] ?? null,
        timestamp: headers["webhook-timestamp"] ?? null,
        signature: headers["webhook-signature"] ?? null,
        body,
      }),
    detail: {
      summary: "Radar monitor webhook receiver (public)",
      requestBody: {
        required: true,
        content: {
          "application/json": {
            schema: {
              type: "object",
              description:
                'Read as raw bytes (the signature covers them). `{"type":"monitor.entities_changed","data":{"monitor_id","entities":[{"kind":"company|person","dedup_key"}]}}`; other types are acknowledged and ignored.',
            },
          },
        },
      },
      description:
        "Standard Webhooks: `webhook-id`, `webhook-timestamp` (within 300 s), `webhook-signature` (`v1,` + base64 HMAC-SHA256 of `id.timestamp.body` under RADAR_WEBHOOK_SECRET, compared in constant time). A bad or missing signature is 401 `INVALID_SIGNATURE` and changes nothing; not configured: 404. `monitor.entities_changed` marks the monitor's records of those entities (by kind and dedup key: a company's domain, a person's `<provider>:<id>`) `drifted`. A webhook id seen before answers 200 `duplicate` and does nothing; other types 200 `ignored`.",
    },
  });
}

const IdentityWebhookHeaders = Type.Object({
  "webhook-id": Type.Optional(
    Type.String({ description: "The event's id: a delivery sent again takes effect once. `svix-id` is accepted too." }),
  ),
  "webhook-timestamp": Type.Optional(
    Type.String({ description: "Unix seconds; more than 300 s from now is a 401. `svix-timestamp` is accepted too." }),
  ),
  "webhook-signature": Type.Optional(
    Type.String({
      description:
        '`v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>">` under IDENTITY_WEBHOOK_SECRET\'s key (`whsec_<base64>`); several may be sent, space-separated. `svix-signature` is accepted too.',
    }),
  ),
  "svix-id": Type.Optional(Type.String()),
  "svix-timestamp": Type.Optional(Type.String()),
  "svix-signature": Type.Optional(Type.String()),
});

/** `POST /webhooks/identity`: the identity provider's user and session events (Standard Webhooks, or Svix's same scheme). */
export function identityWebhookRoutes(deps: ServerDeps) {
  return signedWebhookRoute({
    name: "identity-webhook",
    path: "/webhooks/identity",
    // Off without the sign-in's provider too: its events name the provider's subjects.
    secret: () => (deps.oidc?.issuer ? deps.config.identityWebhookSecret : null),
    notConfigured: "Identity webhook is not configured: set IDENTITY_WEBHOOK_SECRET (and the OIDC_* settings) to enable it",
    headers: IdentityWebhookHeaders,
    result: IdentityWebhookResult,
    alsoErrors: [409],
    receive: (secret, { headers, body }) =>
      receiveIdentityWebhook(deps.core, secret, deps.oidc!.issuer, {
        id: headers["webhook-id"] ?? headers["svix-id"] ?? null,
        timestamp: headers["webhook-timestamp"] ?? headers["svix-timestamp"] ?? null,
        signature: headers["webhook-signature"] ?? headers["svix-signature"] ?? null,
        body,
      }),
    detail: {
      summary: "Identity provider webhook receiver (public)",
      requestBody: {
        required: true,
        content: {
          "application/json": {
            schema: {
              type: "object",
              required: ["type", "data"],
              properties: {
                type: {
                  type: "string",
                  description: "`user.updated`, `user.deleted`, `session.revoked`; others are acknowledged and ignored.",
                },
                timestamp: { type: "string" },
                data: {
                  type: "object",
                  description:
                    "`user.*`: `id` (the provider's subject), `email`, `previous_email`, `name`. `session.revoked`: `user_id` (the subject).",
                },
              },
            },
          },
        },
      },
      description:
        "Standard Webhooks (`webhook-id`, `webhook-timestamp` within 300 s, `webhook-signature` `v1,` + base64 HMAC-SHA256 of `id.timestamp.body` under IDENTITY_WEBHOOK_SECRET, compared in constant time; the `svix-*` names are accepted too). A bad or missing signature or timestamp: 401 `INVALID_SIGNATURE`, nothing changed; not configured: 404. The person is the one linked to the provider's subject (`data.id`; `data.user_id` for `session.revoked`), or, not linked yet, the one with `data.previous_email` or `data.email` (linked then). `user.updated` sets the e-mail and name (another person's e-mail: 409, nothing changed); `user.deleted` deactivates the identity: it signs in no more, and its sessions, OAuth grants and personal API keys stop at once (memberships stay); `session.revoked` ends the person's sessions. A webhook id seen before: 200 `duplicate`, nothing done; other types, or a person unknown here: 200 `ignored`.",
    },
  });
}

const BillingWebhookHeaders = Type.Object({
  "billing-signature": Type.Optional(
    Type.String({
      description:
        '`t=<unix seconds>,v1=<hex>`: HMAC-SHA256 of `"<t>.<raw body>"` under BILLING_WEBHOOK_SECRET (Stripe\'s scheme); several `v1` may be sent (any may match); `t` within 300 s. Missing or wrong: 401.',
    }),
  ),
});

/** `POST /webhooks/billing`: the billing provider's (Stripe's) events. */
export function billingWebhookRoutes(deps: ServerDeps) {
  return signedWebhookRoute({
    name: "billing-webhook",
    path: "/webhooks/billing",
    secret: () => deps.config.billingWebhookSecret,
    notConfigured: "Billing webhook is not configured: set BILLING_WEBHOOK_SECRET to enable it",
    headers: BillingWebhookHeaders,
    result: BillingWebhookResult,
    receive: (secret, { headers, body }) => receiveBillingWebhook(deps.core, secret, headers["billing-signature"] ?? null, body),
    detail: {
      summary: "Billing provider webhook receiver (public)",
      requestBody: {
        required: true,
        content: {
          "application/json": {
            schema: {
              type: "object",
              required: ["id", "type", "created", "data"],
              properties: {
                id: { type: "string", description: "The event id: an event received again answers `duplicate`." },
                type: { type: "string" },
                created: {
                  type: "integer",
                  description: "Unix seconds; an event older than the last applied to the workspace is `stale`.",
                },
                data: { type: "object", properties: { object: { type: "object" } } },
              },
            },
          },
        },
      },
      description:
        'A Stripe event, read as raw bytes (the signature covers them), signed in `billing-signature` (`t=…,v1=…`, HMAC-SHA256 of `"<t>.<raw body>"` under BILLING_WEBHOOK_SECRET, compared in constant time; `t` within 300 s). A bad or missing signature: 401 `INVALID_SIGNATURE`, nothing changed; not configured: 404; a signed body that is not a Stripe event: 400. Answers `{received: true, event_id, type, outcome}`. `checkout.session.completed` (an unpaid one waits for `checkout.session.async_payment_succeeded`; workspace = `client_reference_id`, else `metadata.workspace_id`): kind `subscription` sets the plan to `metadata.plan`, records customer and subscription, status `active`, and grants the period\'s included credits; kind `credits` grants `metadata.credits` through the ledger (once per event). `customer.subscription.updated`: the plan from `metadata.plan` while `active`/`trialing`, `past_due` keeps it, `canceled`/`unpaid` return to free; `customer.subscription.deleted`: free. `invoice.paid`: `active`; `invoice.payment_failed`: `past_due`, event `billing.payment_failed` and a mail to the owners (list `billing`). Plan changes publish `workspace.plan_changed` with `source: "billing"`. An event id seen before: `duplicate`; other types, unknown workspaces or customers, enterprise workspaces: `ignored`.',
    },
  });
}
