import type { Principal } from "../access/mod.ts";
import type { Workspace } from "../workspaces/mod.ts";
import type { BillingSummary, CommercialUsage } from "./dto.ts";
import { workspaceLimits } from "./gate.ts";
import { contractPeriod } from "./offer-model.ts";
import { periodCredits } from "./ledger-period.ts";
import { type Period, periodAt } from "./period.ts";
import { LIMIT_NAMES, overLimit } from "./plans.ts";
import type { BillingDeps } from "./ports.ts";

/**
 * The workspace's billing account as usage shows it. A seam for the billing provider's account
 * (its status and current period): none is stored yet, so every workspace reads as `none`.
 */
export function billingSummaryOf(_workspace: Workspace): { summary: BillingSummary; period: Period | null } {
  return { summary: { status: "none", current_period_end: null }, period: null };
}

/**
 * Commercial usage (any member): the plan, its period and limits, exact counts against each limit,
 * the period's radar credits from the ledger, the kinds over their limit, and the billing account.
 */
export async function commercialUsage(deps: BillingDeps, _p: Principal, workspace: Workspace): Promise<CommercialUsage> {
  const billing = billingSummaryOf(workspace);
  const now = deps.clock.now();
  // A contract (an accepted offer, the operator's enterprise plan) sets the period without a provider's, and enterprise limits.
  const contract = await deps.stores.contracts.get(workspace.id);
  const period = periodAt(now, billing.period ?? (contract ? contractPeriod(contract, now) : null));
  const limits = workspaceLimits({ plan: workspace.plan, contract_limits: contract?.limits });
  const [used, credits, totals] = await Promise.all([
    deps.stores.planUsage.usage(workspace.id),
    periodCredits(deps, workspace.id, period),
    deps.stores.creditLedger.totals(workspace.id),
  ]);
  const of = (name: (typeof LIMIT_NAMES)[number]) => ({ used: used[name], limit: limits[name] });
  return {
    plan: workspace.plan,
    period,
    limits,
    usage: {
      members: of("members"),
      topics: of("topics"),
      collections: of("collections"),
      records: of("records"),
      radar_credits: { included: credits.included, used: credits.used, balance: totals.balance },
    },
    over_limit: overLimit(used, limits),
    billing: billing.summary,
  };
}
