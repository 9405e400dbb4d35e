import { includedCreditsJob, offerEffectsJob, recoverOfferEffects, runIncludedCreditsJob } from "../core/offers/mod.ts";
import { handles } from "./handler.ts";

/** Grants a contract's included credits for the period that started, then queues the next period's. */
export const includedCreditsHandler = handles(
  includedCreditsJob,
  (deps, job) => runIncludedCreditsJob(deps, { workspace_id: job.workspace_id, ...job.payload }),
);

/** Applies an accepted offer's effects a crash left pending. */
export const offerEffectsHandler = handles(offerEffectsJob, async (deps, job) => {
  await recoverOfferEffects(deps, job.workspace_id, job.payload.offer_id);
});
