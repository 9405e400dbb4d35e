import type { WebhookDeliveryStore } from "../../../core/webhooks/ports.ts";
import { type SqlDriver } from "../driver.ts";

/** The primary key (source, delivery_id) decides: of concurrent claims, one insert wins. */
export class PostgresWebhookDeliveryStore implements WebhookDeliveryStore {
  constructor(private readonly db: SqlDriver) {}

  async claim(source: string, deliveryId: string, at: string): Promise<boolean> {
    const rows = await this.db.query(
      `insert into webhook_deliveries (source, delivery_id, received_at) values ($1, $2, $3)
       on conflict (source, delivery_id) do nothing
       returning delivery_id`,
      [source, deliveryId, at],
    );
    return rows.length === 1;
  }

  async release(source: string, deliveryId: string): Promise<void> {
    await this.db.query(`delete from webhook_deliveries where source = $1 and delivery_id = $2`, [source, deliveryId]);
  }

  async prune(before: string): Promise<number> {
    const rows = await this.db.query(`delete from webhook_deliveries where received_at < $1 returning delivery_id`, [before]);
    return rows.length;
  }
}
