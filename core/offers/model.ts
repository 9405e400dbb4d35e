/**
 * Offers and contracts (docs/decisions/034-offers-and-enterprise.md):
 * the operator's priced proposal of a plan to one workspace, after Stripe Quotes, and the terms a
 * workspace is held to once one is accepted or the operator sets an enterprise plan. Pure rules.
 */
import type { PlanLimits } from "../billing/mod.ts";

export const OFFER_PLANS = ["team", "business", "enterprise"] as const;
export type OfferPlan = (typeof OFFER_PLANS)[number];

/** What an offer's stored status can be; `expired` is never stored but read (offerStatus). */
export const STORED_OFFER_STATUSES = ["open", "accepted", "cancelled", "superseded"] as const;
export type StoredOfferStatus = (typeof STORED_OFFER_STATUSES)[number];
export const OFFER_STATUSES = ["open", "accepted", "cancelled", "expired", "superseded"] as const;
export type OfferStatus = (typeof OFFER_STATUSES)[number];

export const OFFER_INTERVALS = ["month", "year"] as const;
export type OfferInterval = (typeof OFFER_INTERVALS)[number];

/** A price in minor units (euro cents) per interval. */
export interface OfferPrice {
  amount: number;
  currency: "eur";
  interval: OfferInterval;
}

/** An enterprise contract's limits: each unset one is unlimited (credits 0). */
export type ContractLimits = Partial<PlanLimits>;

/** An offer as stored: `status` is `open` until it is accepted, cancelled or superseded. */
export interface BillingOffer {
  id: string;
  workspace_id: string;
  plan: OfferPlan;
  /** Enterprise only; null for team and business (the catalogue's limits apply). */
  limits: ContractLimits | null;
  price: OfferPrice;
  term_months: number;
  radar_credits: number | null;
  expires_at: string;
  note: string | null;
  status: StoredOfferStatus;
  revision: number;
  supersedes: string | null;
  superseded_by: string | null;
  created_at: string;
  updated_at: string;
  accepted_at: string | null;
  cancelled_at: string | null;
  superseded_at: string | null;
}

/** Bounds of an offer's terms. */
export const TERM_MONTHS_MAX = 60;
export const OFFER_EXPIRY_DEFAULT_DAYS = 30;
export const OFFER_EXPIRY_MAX_DAYS = 365;
const DAY_MS = 86_400_000;

/** `expired` is read, not written: an open offer past its `expires_at` is expired (ADR 034). */
export function offerStatus(offer: Pick<BillingOffer, "status" | "expires_at">, now: Date): OfferStatus {
  if (offer.status === "open" && Date.parse(offer.expires_at) <= now.getTime()) return "expired";
  return offer.status;
}

/** Whether an offer is open now (not yet expired): only such an offer is accepted or cancelled. */
export const isOpenAt = (offer: BillingOffer, now: Date): boolean => offerStatus(offer, now) === "open";

/** Whether an offer may be reissued: open or expired (both stored `open`). */
export const isReissuable = (offer: BillingOffer): boolean => offer.status === "open";

/** The default expiry of a new offer: 30 days from now. */
export const defaultOfferExpiry = (now: Date): string => new Date(now.getTime() + OFFER_EXPIRY_DEFAULT_DAYS * DAY_MS).toISOString();

/** Whether `expires_at` is in the next 365 days (after now, at most 365 days ahead). */
export function expiryInRange(expiresAt: string, now: Date): boolean {
  const t = Date.parse(expiresAt);
  return Number.isFinite(t) && t > now.getTime() && t <= now.getTime() + OFFER_EXPIRY_MAX_DAYS * DAY_MS;
}

/**
 * The terms a workspace is held to: set by the operator's enterprise endpoint or by accepting an
 * offer; invoiced outside the service. One per workspace (the latest replaces the one before).
 */
export interface Contract {
  workspace_id: string;
  plan: OfferPlan;
  /** The contract's own limits (enterprise); null: the plan's catalogue limits. */
  limits: ContractLimits | null;
  price: OfferPrice;
  term_months: number;
  note: string | null;
  started_at: string;
  /** `started_at` + `term_months`: from then on the contract is listed `renewal_due` (the plan stays). */
  term_ends_at: string;
  source: "operator" | "offer";
  offer_id: string | null;
  updated_at: string;
}

/** Whether the contract's term has ended (its plan stays, listed for renewal). */
export const renewalDue = (c: Pick<Contract, "term_ends_at">, now: Date): boolean => Date.parse(c.term_ends_at) <= now.getTime();
