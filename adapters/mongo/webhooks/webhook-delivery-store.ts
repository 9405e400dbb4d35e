import type { WebhookCollections } from "./collections.ts";
import type { NewWebhookDelivery, RecordedDelivery, WebhookDelivery, WebhookDeliveryStore } from "../../../core/webhooks/ports.ts";
import { isDuplicateKey } from "../duplicate-key.ts";

/**
 * A webhook delivery: `_id` is `<source>:<delivery_id>`, so its insert records it. Written once
 * more only to mark it applied (documents written before the inbox have no `state`: applied).
 */
export interface WebhookDeliveryDoc {
  _id: string;
  source: string;
  delivery_id: string;
  payload?: string;
  state?: "received" | "applied";
  received_at: string;
  applied_at?: string | null;
  outcome?: string | null;
}

/** One attempt's lease: `_id` is `<delivery key>:<n>`, so of concurrent takers of attempt n one inserts it. */
export interface WebhookLeaseDoc {
  _id: string;
  delivery: string;
  n: number;
  lease_until: string;
  /** The delivery's, so that pruning by age finds its leases. */
  received_at: string;
}

const keyOf = (source: string, deliveryId: string) => `${source}:${deliveryId}`;
const lapsed = (lease: WebhookLeaseDoc | undefined, now: string) => !lease || Date.parse(lease.lease_until) <= Date.parse(now);

/** A delivery as the store reads it, with its latest lease: documents from before the inbox have no state (applied) and no lease. */
export function toDelivery(d: WebhookDeliveryDoc, lease: WebhookLeaseDoc | undefined): WebhookDelivery {
  return {
    source: d.source,
    delivery_id: d.delivery_id,
    payload: d.payload ?? "",
    state: d.state ?? "applied",
    received_at: d.received_at,
    lease_until: lease?.lease_until ?? d.received_at,
    attempts: Math.max(1, lease?.n ?? 1),
    applied_at: d.applied_at ?? (d.state === undefined ? d.received_at : null),
    outcome: d.outcome ?? null,
  };
}

/**
 * ADR 005 (FerretDB: no transactions, no atomic conditional update): every contended step is an
 * insert under a unique key. Recording is the delivery's insert; a lease is the insert of attempt
 * n + 1 after reading attempt n lapsed (none: lapsed), so of concurrent takers one wins. The
 * delivery document changes once more, to `applied`, written by whoever finishes (the same state
 * whatever the order). A lease document is written again only by its holder (a release).
 */
export class MongoWebhookDeliveryStore implements WebhookDeliveryStore {
  constructor(private readonly c: WebhookCollections) {}

  private async latestLease(key: string): Promise<WebhookLeaseDoc | undefined> {
    return (await this.c.webhookLeases.find({ delivery: key }).sort({ n: -1 }).limit(1).toArray())[0];
  }

  /** Inserts attempt `n`; false when another taker inserted it first. */
  private async insertLease(doc: WebhookDeliveryDoc, n: number, leaseUntil: string): Promise<WebhookLeaseDoc | null> {
    const lease: WebhookLeaseDoc = { _id: `${doc._id}:${n}`, delivery: doc._id, n, lease_until: leaseUntil, received_at: doc.received_at };
    try {
      await this.c.webhookLeases.insertOne(lease);
      return lease;
    } catch (e) {
      if (isDuplicateKey(e)) return null;
      throw e;
    }
  }

  /** The delivery with a new lease, or null: applied, or another attempt holds or took it. */
  private async takeDoc(doc: WebhookDeliveryDoc, now: string, leaseUntil: string): Promise<WebhookDelivery | null> {
    if ((doc.state ?? "applied") !== "received") return null;
    const latest = await this.latestLease(doc._id);
    if (!lapsed(latest, now)) return null;
    const lease = await this.insertLease(doc, (latest?.n ?? 0) + 1, leaseUntil);
    return lease ? toDelivery(doc, lease) : null;
  }

  async record(d: NewWebhookDelivery): Promise<RecordedDelivery> {
    const doc: WebhookDeliveryDoc = {
      _id: keyOf(d.source, d.delivery_id),
      source: d.source,
      delivery_id: d.delivery_id,
      payload: d.payload,
      state: "received",
      received_at: d.at,
      applied_at: null,
      outcome: null,
    };
    try {
      await this.c.webhookDeliveries.insertOne(doc);
      // Attempt 1. A crash before it leaves the delivery without a lease, which reads as lapsed.
      const lease = await this.insertLease(doc, 1, d.lease_until);
      if (lease) return { kind: "new", delivery: toDelivery(doc, lease) };
      // A concurrent redelivery saw no lease yet and took attempt 1 itself.
      return { kind: "busy", delivery: toDelivery(doc, await this.latestLease(doc._id)) };
    } catch (e) {
      if (!isDuplicateKey(e)) throw e;
    }
    const known = await this.c.webhookDeliveries.findOne({ _id: doc._id });
    if (!known) return { kind: "applied", delivery: { ...toDelivery(doc, undefined), state: "applied" } };
    if ((known.state ?? "applied") === "applied") return { kind: "applied", delivery: toDelivery(known, undefined) };
    const taken = await this.takeDoc(known, d.at, d.lease_until);
    if (taken) return { kind: "taken", delivery: taken };
    return { kind: "busy", delivery: toDelivery(known, await this.latestLease(known._id)) };
  }

  async take(source: string, deliveryId: string, now: string, leaseUntil: string): Promise<WebhookDelivery | null> {
    const known = await this.c.webhookDeliveries.findOne({ _id: keyOf(source, deliveryId) });
    return known ? this.takeDoc(known, now, leaseUntil) : null;
  }

  async release(source: string, deliveryId: string, attempt: number, now: string): Promise<void> {
    // Only the holder of attempt n writes its document; a later attempt's lease is another document.
    await this.c.webhookLeases.updateOne({ _id: `${keyOf(source, deliveryId)}:${attempt}` }, { $set: { lease_until: now } });
  }

  async markApplied(source: string, deliveryId: string, outcome: string, at: string): Promise<void> {
    await this.c.webhookDeliveries.updateOne(
      { _id: keyOf(source, deliveryId), state: "received" },
      { $set: { state: "applied", applied_at: at, outcome } },
    );
  }

  async get(source: string, deliveryId: string): Promise<WebhookDelivery | null> {
    const key = keyOf(source, deliveryId);
    const known = await this.c.webhookDeliveries.findOne({ _id: key });
    return known ? toDelivery(known, await this.latestLease(key)) : null;
  }

  async unfinished(now: string, maxAttempts: number, limit: number): Promise<WebhookDelivery[]> {
    const n = Math.max(0, Math.trunc(limit));
    if (n === 0) return [];
    // Leases live beside the deliveries: read the oldest unfinished ones (a bounded window), then
    // their leases in one query, and keep those lapsed.
    const docs = await this.c.webhookDeliveries.find({ state: "received", received_at: { $lte: now } }).sort({ received_at: 1 })
      .limit(n * 4).toArray();
    if (docs.length === 0) return [];
    const leases = await this.c.webhookLeases.find({ delivery: { $in: docs.map((d) => d._id) } }).toArray();
    const latest = new Map<string, WebhookLeaseDoc>();
    for (const l of leases) if ((latest.get(l.delivery)?.n ?? 0) < l.n) latest.set(l.delivery, l);
    return docs
      .map((d) => toDelivery(d, latest.get(d._id)))
      .filter((d) => Date.parse(d.lease_until) <= Date.parse(now) && d.attempts < maxAttempts)
      .sort((a, b) => Date.parse(a.lease_until) - Date.parse(b.lease_until))
      .slice(0, n);
  }

  async prune(before: string): Promise<number> {
    const r = await this.c.webhookDeliveries.deleteMany({ received_at: { $lt: before } });
    await this.c.webhookLeases.deleteMany({ received_at: { $lt: before } });
    return r.deletedCount;
  }
}
