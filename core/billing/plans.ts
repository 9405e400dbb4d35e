/**
 * Plans and their limits (issue #15, "Plans and limits"): pure rules. Unlimited is `null`; an
 * enterprise contract sets its own limits, an unset one unlimited (credits 0). A year costs ten
 * months; bought credits cost €0.05 each.
 */

import type { Plan as PlanId } from "../workspaces/mod.ts";

export const SELF_SERVE_PLANS = ["free", "team", "business"] as const;

export const LIMIT_NAMES = ["members", "topics", "collections", "records"] as const;
export type LimitName = (typeof LIMIT_NAMES)[number];

export interface PlanLimits {
  members: number | null;
  topics: number | null;
  collections: number | null;
  records: number | null;
  /** Credits included each period; 0 for none. */
  radar_credits_monthly: number;
}

export interface PlanTerms {
  id: PlanId;
  name: string;
  self_serve: boolean;
  /** Monthly price in euro cents; null: by contract. */
  monthly_cents: number | null;
  limits: PlanLimits;
}

export const PLAN_CATALOGUE: Readonly<Record<PlanId, PlanTerms>> = {
  free: {
    id: "free",
    name: "Free",
    self_serve: true,
    monthly_cents: 0,
    limits: { members: 5, topics: 1_000, collections: 5, records: 10_000, radar_credits_monthly: 0 },
  },
  team: {
    id: "team",
    name: "Team",
    self_serve: true,
    monthly_cents: 4_900,
    limits: { members: 25, topics: 25_000, collections: 50, records: 250_000, radar_credits_monthly: 2_000 },
  },
  business: {
    id: "business",
    name: "Business",
    self_serve: true,
    monthly_cents: 24_900,
    limits: { members: 200, topics: null, collections: 500, records: 5_000_000, radar_credits_monthly: 10_000 },
  },
  enterprise: {
    id: "enterprise",
    name: "Enterprise",
    self_serve: false,
    monthly_cents: null,
    limits: { members: null, topics: null, collections: null, records: null, radar_credits_monthly: 0 },
  },
};

/** Price of bought credits, in euro cents per credit. */
export const CREDIT_PRICE_CENTS = 5;
/** A year is charged as this many months. */
export const MONTHS_CHARGED_PER_YEAR = 10;

export type BillingInterval = "month" | "year";

/** What a self-serve plan costs per interval, in euro cents (null for a contract). */
export function planPriceCents(plan: PlanId, interval: BillingInterval): number | null {
  const monthly = PLAN_CATALOGUE[plan].monthly_cents;
  if (monthly === null) return null;
  return interval === "year" ? monthly * MONTHS_CHARGED_PER_YEAR : monthly;
}

/** What `credits` bought credits cost, in euro cents. */
export const creditsPriceCents = (credits: number): number => credits * CREDIT_PRICE_CENTS;

/** The limits in force: the plan's, or for enterprise the contract's (unset ones unlimited, credits 0). */
export function limitsOf(plan: PlanId, contract: Partial<PlanLimits> | null = null): PlanLimits {
  if (plan !== "enterprise") return { ...PLAN_CATALOGUE[plan].limits };
  return {
    members: contract?.members ?? null,
    topics: contract?.topics ?? null,
    collections: contract?.collections ?? null,
    records: contract?.records ?? null,
    radar_credits_monthly: contract?.radar_credits_monthly ?? 0,
  };
}

export type Usage = Record<LimitName, number>;

/** The kinds whose usage is beyond their limit (a downgrade keeps everything; their creates are refused). */
export function overLimit(usage: Usage, limits: PlanLimits): LimitName[] {
  return LIMIT_NAMES.filter((name) => limits[name] !== null && usage[name] > limits[name]!);
}

/** Whether one more of `name` fits: `used + 1 ≤ limit`. */
export function admits(limits: PlanLimits, name: LimitName, used: number): boolean {
  const limit = limits[name];
  return limit === null || used + 1 <= limit;
}

/**
 * Credits to grant at once when the included credits rise mid-period (an upgrade): the
 * difference, never negative (a downgrade takes nothing back: grants do not expire).
 */
export function upgradeGrant(from: PlanLimits, to: PlanLimits): number {
  return Math.max(0, to.radar_credits_monthly - from.radar_credits_monthly);
}
