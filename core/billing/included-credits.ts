import { grantCredits, type GrantResult, PLATFORM_OPERATOR } from "../credits/mod.ts";
import type { Plan, Workspace } from "../workspaces/mod.ts";
import { periodCredits } from "./ledger-period.ts";
import { includedCreditsKey, type Period } from "./period.ts";
import { limitsOf, type PlanLimits } from "./plans.ts";
import type { BillingDeps } from "./ports.ts";

/** Who started (or changed) a plan: the owner's own switch, the billing webhook, an accepted offer, the operator. */
export const PLAN_SOURCES = ["owner", "billing", "offer", "operator"] as const;
export type PlanSource = (typeof PLAN_SOURCES)[number];

export interface IncludedGrant {
  /** Credits granted now (0: the period already had its plan's included credits). */
  granted: number;
  /** Included credits of the period after this call. */
  included: number;
  /** The ledger's grant, when one was written (or replayed). */
  grant: GrantResult | null;
}

/**
 * Grants a paid or contracted plan's included credits for `period` through the ledger's grant:
 * called when the plan starts, at each period's start, and when it changes mid-period. It tops
 * the period's included grants up to the plan's `radar_credits_monthly`, so
 * - once per period: the first grant's idempotency key names the period
 *   (`plan.included:<period start>`), and a repeat (a webhook redelivered) grants nothing;
 * - an upgrade mid-period grants the difference at once, under a key naming the period and the
 *   plan reached (`…:<plan>`); a downgrade grants nothing and takes nothing back (grants do not
 *   expire, so they roll over).
 * An owner's own switch without a billing provider (`source: "owner"`) includes no credits: it
 * is refused here with nothing granted. `contract` holds an enterprise contract's limits.
 */
export async function grantIncludedCredits(
  deps: BillingDeps,
  workspace: Workspace,
  plan: Plan,
  period: Period,
  source: PlanSource,
  contract: Partial<PlanLimits> | null = null,
): Promise<IncludedGrant> {
  const so_far = await periodCredits(deps, workspace.id, period);
  if (source === "owner") return { granted: 0, included: so_far.included, grant: null };
  const target = limitsOf(plan, contract).radar_credits_monthly;
  const amount = target - so_far.included;
  if (amount <= 0) return { granted: 0, included: so_far.included, grant: null };
  const base = includedCreditsKey(period);
  const key = so_far.included === 0 ? base : `${base}:${plan}`;
  const grant = await grantCredits(deps, PLATFORM_OPERATOR, workspace, {
    amount,
    reason: `Included credits of the ${plan} plan for the period from ${period.start} (${source})`,
  }, { idempotencyKey: key });
  const granted = grant.entry.amount;
  return { granted, included: so_far.included + granted, grant };
}
