/**
 * Inbound webhooks, shared by every receiver: signature schemes (which outbound deliveries sign
 * with too), the one verify-then-parse way in (`readSignedEvent`) and the delivery store that makes
 * a redelivery take effect once. Each receiver lives in the module whose effect it has
 * (code-context/code-host-webhook.ts).
 */
export * from "./ports.ts";
export * from "./signature.ts";
export * from "./standard-webhooks.ts";
export * from "./stripe-signature.ts";
export * from "./signed-event.ts";
export * from "./inbox.ts";
