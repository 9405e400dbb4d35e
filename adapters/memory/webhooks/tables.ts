/** The in-memory tables of webhooks (the adapter's composition shares one object of every module's tables). */
export class WebhookTables {
  /** `${source}:${delivery_id}` → when it was received. Global, like workspaces. */
  webhookDeliveries = new Map<string, string>();
}
