import type { Principal } from "../access/mod.ts";
import type { Workspace } from "../workspaces/mod.ts";
import type { BillingSummary, CommercialUsage } from "./dto.ts";
import { workspaceLimits } from "./gate.ts";
import { periodCredits } from "./ledger-period.ts";
import { contractPeriod, type Period, periodAt } from "./period.ts";
import { LIMIT_NAMES, overLimit } from "./plans.ts";
import type { BillingDeps } from "./ports.ts";
import type { BillingAccount } from "./account.ts";

/**
 * The workspace's billing account as usage shows it: its status and current period end, and the
 * period itself (the subscription's, when one is recorded). `none` without an account.
 */
export async function billingSummaryOf(
  deps: BillingDeps,
  workspace: Workspace,
): Promise<{ summary: BillingSummary; period: Period | null }> {
  return summaryOfAccount(await deps.stores.billingAccounts.get(workspace.id));
}

/** The same from an account already read (the operator's list reads a page of them at once). */
export function summaryOfAccount(account: BillingAccount | null): { summary: BillingSummary; period: Period | null } {
  if (!account) return { summary: { status: "none", current_period_end: null }, period: null };
  const period = account.current_period_start && account.current_period_end
    ? { start: account.current_period_start, end: account.current_period_end }
    : null;
  return { summary: { status: account.status, current_period_end: account.current_period_end }, period };
}

/**
 * Commercial usage (any member): the plan, its period and limits, exact counts against each limit,
 * the period's radar credits from the ledger, the kinds over their limit, and the billing account.
 */
export async function commercialUsage(deps: BillingDeps, _p: Principal, workspace: Workspace): Promise<CommercialUsage> {
  const billing = await billingSummaryOf(deps, workspace);
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
