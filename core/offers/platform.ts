import type { PlatformOperator } from "../credits/mod.ts";
import type { OffsetPage } from "../kernel/paging.ts";
import { toOffsetResult } from "../kernel/paging.ts";
import { PLANS, type WorkspaceFilter } from "../workspaces/mod.ts";
import { LIMIT_NAMES, overLimit, PLAN_CATALOGUE, planPriceCents, summaryOfAccount } from "../billing/mod.ts";
import { contractView, limitsWithContract } from "./contracts.ts";
import type { PlanList, PlatformWorkspacePage } from "./dto.ts";
import { renewalDue } from "./model.ts";
import { assertPlatformOperator } from "./policy.ts";
import type { OfferDeps } from "./ports.ts";

/**
 * The operator's list of workspaces, newest first, each with its plan, billing account, usage
 * against its limits, the kinds over them and its contract. Usage, contracts and billing accounts
 * are read for the whole page at once (three reads, not three per workspace).
 */
export async function platformWorkspaces(
  deps: OfferDeps,
  actor: PlatformOperator,
  filter: WorkspaceFilter,
  page: OffsetPage,
): Promise<PlatformWorkspacePage> {
  assertPlatformOperator(actor, "list workspaces");
  const listed = await deps.stores.workspaces.list(filter, page);
  const ids = listed.items.map((w) => w.id);
  const [usage, contracts, accounts] = await Promise.all([
    deps.stores.planUsage.usageOf(ids),
    deps.stores.contracts.getMany(ids),
    deps.stores.billingAccounts.getMany(ids),
  ]);
  const now = deps.clock.now();
  const items = listed.items.map((w) => {
    const contract = contracts.get(w.id) ?? null;
    const limits = limitsWithContract(w.plan, contract);
    const used = usage.get(w.id) ?? { members: 0, topics: 0, collections: 0, records: 0 };
    const of = (name: (typeof LIMIT_NAMES)[number]) => ({ used: used[name], limit: limits[name] });
    return {
      id: w.id,
      slug: w.slug,
      name: w.name,
      plan: w.plan,
      created_at: w.created_at,
      billing: summaryOfAccount(accounts.get(w.id) ?? null).summary,
      limits,
      usage: { members: of("members"), topics: of("topics"), collections: of("collections"), records: of("records") },
      over_limit: overLimit(used, limits),
      contract: contract ? contractView(contract, now) : null,
      renewal_due: contract ? renewalDue(contract, now) : false,
    };
  });
  const r = toOffsetResult(items, listed.total, page);
  return { workspaces: r.items, total: r.total, has_more: r.has_more };
}

/** The plan catalogue as the operator sees it: prices in euro cents per month and year (null: by contract). */
export function planList(): PlanList {
  return {
    plans: PLANS.map((id) => {
      const t = PLAN_CATALOGUE[id];
      const month = planPriceCents(id, "month");
      const year = planPriceCents(id, "year");
      return {
        id,
        name: t.name,
        self_serve: t.self_serve,
        price: month === null || year === null ? null : { currency: "eur" as const, month, year },
        limits: { ...t.limits },
      };
    }),
  };
}
