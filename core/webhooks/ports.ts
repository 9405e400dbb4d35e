/**
 * The inbox of inbound webhook deliveries (docs/decisions/042-webhook-inbox.md): a delivery is
 * recorded under its unique key (source, delivery_id) together with its verified payload, in one
 * write, before its effect; its effect is applied by an idempotent handler under a lease, then the
 * delivery is marked applied. A delivery left unfinished (a crash, a failure) is applied again by
 * its redelivery or by the recovery sweep once its lease has lapsed; one applied is a duplicate.
 * Global, not tenant data: a delivery arrives before any workspace is known and may concern
 * several workspaces; the key is the one webhook lookup that does not start with `workspace_id`.
 */
export type WebhookDeliveryState = "received" | "applied";

export interface WebhookDelivery {
  source: string;
  delivery_id: string;
  /** What the source's handler needs to apply it (the verified body, as the receiver serialised it). */
  payload: string;
  state: WebhookDeliveryState;
  received_at: string;
  /** Until when the current attempt holds it: an unfinished delivery is taken again after this. */
  lease_until: string;
  /** Attempts taken so far (the first, recording one included). */
  attempts: number;
  applied_at: string | null;
  /** The handler's outcome (e.g. `processed`, `ignored`, `stale`); null while unfinished. */
  outcome: string | null;
}

export interface NewWebhookDelivery {
  source: string;
  delivery_id: string;
  payload: string;
  /** When it arrived. */
  at: string;
  /** The first attempt's lease (the caller applies it now). */
  lease_until: string;
}

/**
 * What `record` found: `new` (recorded now, the caller holds the lease), `taken` (recorded before,
 * unfinished and its lease lapsed or not yet taken: the caller holds a new lease and applies it),
 * `busy` (unfinished, another attempt holds the lease), `applied` (done before). A caller treats
 * `new` and `taken` alike: it holds the lease and applies the recorded payload.
 */
export type RecordedDelivery =
  | { kind: "new" | "taken"; delivery: WebhookDelivery }
  | { kind: "busy" | "applied"; delivery: WebhookDelivery };

export interface WebhookDeliveryStore {
  /**
   * Records the delivery, or finds it recorded before (see `RecordedDelivery`); a lapsed lease is
   * taken with `lease_until`. The payload recorded first is kept, and every answer carries it.
   *
   * Concurrency: of concurrent calls for one key exactly one may apply it (gets `new` or `taken`);
   * every other gets `busy` (or `applied` once it is marked). Which call wins, and whether its
   * answer is `new` or `taken`, is not promised: where recording and the first lease are two
   * writes (MongoDB, ADR 042), a redelivery can take attempt 1 between them (`taken`, attempt 1)
   * and the recording call is then `busy`.
   */
  record(d: NewWebhookDelivery): Promise<RecordedDelivery>;
  /**
   * Takes the lease of an unfinished delivery whose lease lapsed by `now` (the recovery sweep):
   * the delivery with `attempts` counted, or null (applied, held by another attempt, unknown).
   * Of concurrent calls exactly one gets it.
   */
  take(source: string, deliveryId: string, now: string, leaseUntil: string): Promise<WebhookDelivery | null>;
  /**
   * Gives up the lease of attempt `attempt` (its effect failed), so a redelivery applies it at
   * once; nothing when a later attempt took it meanwhile or it is applied.
   */
  release(source: string, deliveryId: string, attempt: number, now: string): Promise<void>;
  /** Marks an unfinished delivery applied with the handler's outcome (idempotent: an applied one stays as it is). */
  markApplied(source: string, deliveryId: string, outcome: string, at: string): Promise<void>;
  get(source: string, deliveryId: string): Promise<WebhookDelivery | null>;
  /**
   * Unfinished deliveries whose lease lapsed by `now` and that were attempted fewer than
   * `maxAttempts` times, soonest lapsed first, at most `limit` (the recovery sweep's work).
   */
  unfinished(now: string, maxAttempts: number, limit: number): Promise<WebhookDelivery[]>;
  /**
   * Forgets deliveries received before `before`, returns how many: past any provider's redelivery
   * window (an unfinished one that old was given up by the recovery sweep long before).
   */
  prune(before: string): Promise<number>;
}

/** Webhooks' stores, one bundle per adapter (adapters/<adapter>/webhooks/). */
export interface WebhookStores {
  webhookDeliveries: WebhookDeliveryStore;
}
