import { offerEffectsJob } from "./jobs.ts";
import { recoverOfferEffects } from "./offers.ts";
import { runIncludedCreditsJob, scheduleIncludedCredits } from "./included-schedule.ts";
import type { OfferDeps } from "./ports.ts";

/** Items a sweep takes of each kind (the next sweep takes the rest). */
const SWEEP_LIMIT = 100;

/**
 * How long an acceptance's own request has to apply its effects before a sweep recovers them:
 * recovering sooner would race a request still applying them (harmless, every effect is
 * idempotent, but it would publish `billing.offer_accepted` twice).
 */
export const OFFER_EFFECTS_GRACE_MS = 60_000;

/**
 * What a consumer does at start and every minute (beside the radar sweep): queues the grants of
 * contracts whose next period has started and the effects of accepted offers a crash left
 * pending, in case their jobs were lost or never queued (a crash between a write and its
 * enqueue). Without a queue it runs them here.
 */
export async function billingSweep(deps: OfferDeps): Promise<{ grants: number; offers: number }> {
  const now = deps.clock.now();
  const dues = await deps.stores.contracts.dueGrants(now.toISOString(), SWEEP_LIMIT);
  for (const due of dues) {
    if (deps.jobs) await scheduleIncludedCredits(deps, due);
    else await runIncludedCreditsJob(deps, due);
  }
  const before = new Date(now.getTime() - OFFER_EFFECTS_GRACE_MS).toISOString();
  const pending = await deps.stores.offers.pendingEffects(before, SWEEP_LIMIT);
  for (const offer of pending) {
    if (deps.jobs) await deps.jobs.enqueue(offerEffectsJob, offer.workspace_id, { offer_id: offer.id });
    else await recoverOfferEffects(deps, offer.workspace_id, offer.id);
  }
  return { grants: dues.length, offers: pending.length };
}
