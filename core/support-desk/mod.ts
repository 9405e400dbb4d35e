/**
 * Support: a workspace's support-desk conversations as Intercom's webhook notifications describe
 * them (the support log), the receiver of those notifications, and the listing for owners and admins.
 */
export * from "./model.ts";
export * from "./dto.ts";
export * from "./ports.ts";
export * from "./policy.ts";
export * from "./intercom-notification.ts";
export * from "./support-webhook.ts";
export * from "./conversations.ts";
