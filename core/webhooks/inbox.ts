import type { Clock } from "../kernel/clock.ts";
import type { WebhookDelivery, WebhookStores } from "./ports.ts";

/**
 * The webhook inbox (docs/decisions/042-webhook-inbox.md), shared by every receiver: a verified
 * delivery is recorded with its payload under its unique key in one write, applied by the
 * source's idempotent handler under a lease, then marked applied. A crash (or a failure) between
 * recording and marking leaves it unfinished: its redelivery, or the recovery sweep once the
 * lease has lapsed, applies it again; the handlers' effects are idempotent, so applying twice
 * leaves what applying once does. A delivery applied (or being applied) is a `duplicate`.
 */

/** How long one attempt holds a delivery before another may apply it (a request, a sweep). */
export const WEBHOOK_LEASE_MS = 60_000;
/** Attempts after which the recovery sweep leaves a delivery alone (a redelivery still applies it). */
export const WEBHOOK_MAX_ATTEMPTS = 8;
/** Deliveries are remembered this long (providers redeliver for a few days at most). */
export const DELIVERY_RETENTION_DAYS = 30;
/** Deliveries one sweep applies at most. */
const SWEEP_LIMIT = 100;

interface InboxDeps {
  stores: WebhookStores;
  clock: Clock;
}

/** A source's handler: applies a recorded payload (idempotently) and says what came of it. */
export interface WebhookHandler<D extends InboxDeps = InboxDeps> {
  source: string;
  apply(deps: D, payload: string): Promise<string>;
}

const later = (at: Date, ms: number) => new Date(at.getTime() + ms).toISOString();

/** Applies the delivery this attempt holds, then marks it applied; a failure gives the lease back and rethrows. */
async function attempt<R>(
  deps: InboxDeps,
  d: WebhookDelivery,
  apply: (payload: string) => Promise<R>,
  outcomeOf: (result: R) => string,
): Promise<R> {
  const store = deps.stores.webhookDeliveries;
  let result: R;
  try {
    result = await apply(d.payload);
  } catch (e) {
    // Kept unfinished: the provider's retry (or the sweep) applies it again, now rather than after the lease.
    await store.release(d.source, d.delivery_id, d.attempts, deps.clock.now().toISOString()).catch(() => {});
    throw e;
  }
  await store.markApplied(d.source, d.delivery_id, outcomeOf(result), deps.clock.now().toISOString());
  return result;
}

/**
 * Records the delivery and applies it once: its result, or `duplicate` when it was applied before
 * or another attempt is applying it now (should that one fail, the recovery sweep finishes it). A
 * redelivery of an unfinished delivery whose lease lapsed applies the payload recorded first.
 */
export async function deliverOnce<R>(
  deps: InboxDeps,
  source: string,
  deliveryId: string,
  payload: string,
  apply: (payload: string) => Promise<R>,
  outcomeOf: (result: R) => string,
): Promise<R | "duplicate"> {
  const now = deps.clock.now();
  const store = deps.stores.webhookDeliveries;
  const recorded = await store.record({
    source,
    delivery_id: deliveryId,
    payload,
    at: now.toISOString(),
    lease_until: later(now, WEBHOOK_LEASE_MS),
  });
  if (recorded.kind === "applied" || recorded.kind === "busy") return "duplicate";
  return attempt(deps, recorded.delivery, apply, outcomeOf);
}

export interface SweepReport {
  applied: number;
  failed: number;
}

/**
 * The recovery path (run by every consuming process at start and each minute, beside the radar
 * sweep): each unfinished delivery whose lease lapsed is taken (one taker wins) and applied by its
 * source's handler. A failure gives the lease back; after `WEBHOOK_MAX_ATTEMPTS` it is left alone.
 * Deliveries past the retention are forgotten here too.
 */
export async function recoverWebhookDeliveries<D extends InboxDeps>(
  deps: D,
  handlers: readonly WebhookHandler<D>[],
  onFailure: (d: WebhookDelivery, error: unknown) => void = () => {},
): Promise<SweepReport> {
  const bySource = new Map(handlers.map((h) => [h.source, h]));
  const store = deps.stores.webhookDeliveries;
  const now = deps.clock.now();
  const report: SweepReport = { applied: 0, failed: 0 };
  await store.prune(later(now, -DELIVERY_RETENTION_DAYS * 86_400_000));
  for (const d of await store.unfinished(now.toISOString(), WEBHOOK_MAX_ATTEMPTS, SWEEP_LIMIT)) {
    const handler = bySource.get(d.source);
    if (!handler) continue;
    const taken = await store.take(d.source, d.delivery_id, now.toISOString(), later(now, WEBHOOK_LEASE_MS));
    if (!taken) continue;
    try {
      await attempt(deps, taken, (payload) => handler.apply(deps, payload), (outcome) => outcome);
      report.applied++;
    } catch (e) {
      report.failed++;
      onFailure(taken, e);
    }
  }
  return report;
}
