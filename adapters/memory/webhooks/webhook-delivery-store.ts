import type { WebhookTables } from "./tables.ts";
import type { NewWebhookDelivery, RecordedDelivery, WebhookDelivery, WebhookDeliveryStore } from "../../../core/webhooks/ports.ts";
import { copy } from "../rows.ts";

/** The reference inbox: every method runs in one turn of the event loop, so each is atomic. */
export class MemoryWebhookDeliveryStore implements WebhookDeliveryStore {
  constructor(private t: WebhookTables) {}

  async record(d: NewWebhookDelivery): Promise<RecordedDelivery> {
    const key = `${d.source}:${d.delivery_id}`;
    const known = this.t.webhookDeliveries.get(key);
    if (!known) {
      const delivery: WebhookDelivery = {
        source: d.source,
        delivery_id: d.delivery_id,
        payload: d.payload,
        state: "received",
        received_at: d.at,
        lease_until: d.lease_until,
        attempts: 1,
        applied_at: null,
        outcome: null,
      };
      this.t.webhookDeliveries.set(key, delivery);
      return { kind: "new", delivery: copy(delivery) };
    }
    if (known.state === "applied") return { kind: "applied", delivery: copy(known) };
    const taken = this.takeNow(known, d.at, d.lease_until);
    return taken ? { kind: "taken", delivery: taken } : { kind: "busy", delivery: copy(known) };
  }

  private takeNow(known: WebhookDelivery, now: string, leaseUntil: string): WebhookDelivery | null {
    if (known.state !== "received" || Date.parse(known.lease_until) > Date.parse(now)) return null;
    known.lease_until = leaseUntil;
    known.attempts += 1;
    return copy(known);
  }

  async take(source: string, deliveryId: string, now: string, leaseUntil: string): Promise<WebhookDelivery | null> {
    const known = this.t.webhookDeliveries.get(`${source}:${deliveryId}`);
    return known ? this.takeNow(known, now, leaseUntil) : null;
  }

  async release(source: string, deliveryId: string, attempt: number, now: string): Promise<void> {
    const known = this.t.webhookDeliveries.get(`${source}:${deliveryId}`);
    if (known && known.state === "received" && known.attempts === attempt) known.lease_until = now;
  }

  async markApplied(source: string, deliveryId: string, outcome: string, at: string): Promise<void> {
    const known = this.t.webhookDeliveries.get(`${source}:${deliveryId}`);
    if (!known || known.state === "applied") return;
    known.state = "applied";
    known.applied_at = at;
    known.outcome = outcome;
  }

  async get(source: string, deliveryId: string): Promise<WebhookDelivery | null> {
    const known = this.t.webhookDeliveries.get(`${source}:${deliveryId}`);
    return known ? copy(known) : null;
  }

  async unfinished(now: string, maxAttempts: number, limit: number): Promise<WebhookDelivery[]> {
    const at = Date.parse(now);
    return [...this.t.webhookDeliveries.values()]
      .filter((d) => d.state === "received" && Date.parse(d.lease_until) <= at && d.attempts < maxAttempts)
      .sort((a, b) => Date.parse(a.lease_until) - Date.parse(b.lease_until))
      .slice(0, Math.max(0, Math.trunc(limit)))
      .map(copy);
  }

  async prune(before: string): Promise<number> {
    let n = 0;
    for (const [key, d] of this.t.webhookDeliveries) {
      if (d.received_at < before) {
        this.t.webhookDeliveries.delete(key);
        n++;
      }
    }
    return n;
  }
}
