import type { NewWebhookDelivery, RecordedDelivery, WebhookDelivery, WebhookDeliveryStore } from "../../../core/webhooks/ports.ts";
import { iso, isoOrNull, type SqlDriver } from "../driver.ts";
import { type Row, str, strOrNull } from "../row-values.ts";

const COLUMNS = "source, delivery_id, payload, state, received_at, lease_until, attempts, applied_at, outcome";

export const toDelivery = (r: Row): WebhookDelivery => ({
  source: str(r.source),
  delivery_id: str(r.delivery_id),
  payload: str(r.payload),
  state: str(r.state) as WebhookDelivery["state"],
  received_at: iso(r.received_at),
  lease_until: iso(r.lease_until),
  attempts: Number(r.attempts),
  applied_at: isoOrNull(r.applied_at),
  outcome: strOrNull(r.outcome),
});

/**
 * The primary key (source, delivery_id) decides who records a delivery (of concurrent inserts one
 * wins); a lease is taken by one conditional update (`lease_until <= now`), which PostgreSQL runs
 * on the locked row, so of concurrent takers one gets it.
 */
export class PostgresWebhookDeliveryStore implements WebhookDeliveryStore {
  constructor(private readonly db: SqlDriver) {}

  async record(d: NewWebhookDelivery): Promise<RecordedDelivery> {
    const inserted = await this.db.query<Row>(
      `insert into webhook_deliveries (source, delivery_id, payload, state, received_at, lease_until, attempts)
       values ($1, $2, $3, 'received', $4, $5, 1)
       on conflict (source, delivery_id) do nothing
       returning ${COLUMNS}`,
      [d.source, d.delivery_id, d.payload, d.at, d.lease_until],
    );
    if (inserted[0]) return { kind: "new", delivery: toDelivery(inserted[0]) };
    const taken = await this.take(d.source, d.delivery_id, d.at, d.lease_until);
    if (taken) return { kind: "taken", delivery: taken };
    const known = await this.get(d.source, d.delivery_id);
    // Gone between the two statements (pruned): it was applied.
    if (!known) return { kind: "applied", delivery: { ...this.fresh(d), state: "applied" } };
    return { kind: known.state === "applied" ? "applied" : "busy", delivery: known };
  }

  private fresh(d: NewWebhookDelivery): WebhookDelivery {
    return { ...d, received_at: d.at, state: "received", attempts: 1, applied_at: null, outcome: null };
  }

  async take(source: string, deliveryId: string, now: string, leaseUntil: string): Promise<WebhookDelivery | null> {
    const rows = await this.db.query<Row>(
      `update webhook_deliveries set lease_until = $4, attempts = attempts + 1
       where source = $1 and delivery_id = $2 and state = 'received' and lease_until <= $3
       returning ${COLUMNS}`,
      [source, deliveryId, now, leaseUntil],
    );
    return rows[0] ? toDelivery(rows[0]) : null;
  }

  async release(source: string, deliveryId: string, attempt: number, now: string): Promise<void> {
    await this.db.query(
      `update webhook_deliveries set lease_until = $4
       where source = $1 and delivery_id = $2 and state = 'received' and attempts = $3`,
      [source, deliveryId, attempt, now],
    );
  }

  async markApplied(source: string, deliveryId: string, outcome: string, at: string): Promise<void> {
    await this.db.query(
      `update webhook_deliveries set state = 'applied', applied_at = $4, outcome = $3
       where source = $1 and delivery_id = $2 and state = 'received'`,
      [source, deliveryId, outcome, at],
    );
  }

  async get(source: string, deliveryId: string): Promise<WebhookDelivery | null> {
    const rows = await this.db.query<Row>(`select ${COLUMNS} from webhook_deliveries where source = $1 and delivery_id = $2`, [
      source,
      deliveryId,
    ]);
    return rows[0] ? toDelivery(rows[0]) : null;
  }

  async unfinished(now: string, maxAttempts: number, limit: number): Promise<WebhookDelivery[]> {
    const n = Math.max(0, Math.trunc(limit));
    if (n === 0) return [];
    const rows = await this.db.query<Row>(
      `select ${COLUMNS} from webhook_deliveries
       where state = 'received' and lease_until <= $1 and attempts < $2
       order by lease_until limit $3`,
      [now, maxAttempts, n],
    );
    return rows.map(toDelivery);
  }

  async prune(before: string): Promise<number> {
    const rows = await this.db.query(
      `delete from webhook_deliveries where received_at < $1 returning delivery_id`,
      [before],
    );
    return rows.length;
  }
}
