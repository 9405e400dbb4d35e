import type { Collection, Db } from "mongodb";
import type { BillingOffer, Contract } from "../../../core/billing/offer-model.ts";

/** One unit of a workspace's usage of a kind: `_id` `<workspace_id>:<kind>:<n>`, numbered 1 … limit. */
export interface PlanSlotDoc {
  _id: string;
  workspace_id: string;
  kind: string;
  n: number;
  at: string;
}

/** That a workspace's slots of a kind were seeded from its items: `_id` `<workspace_id>:<kind>`. */
export interface PlanSeedDoc {
  _id: string;
  workspace_id: string;
  kind: string;
  at: string;
}

/**
 * One version of a workspace's billing account: `_id` `<workspace_id>:<version>`. A write inserts
 * the next version (the insert into the unique `_id` is the compare-and-set, ADR 005); the
 * newest version is the account. Older versions stay (a few per workspace a month): a freed
 * number could be taken again by a writer that read long ago.
 */
export interface BillingAccountDoc {
  _id: string;
  workspace_id: string;
  customer_id: string | null;
  subscription_id: string | null;
  status: string;
  plan: string | null;
  current_period_start: string | null;
  current_period_end: string | null;
  last_event_created: number | null;
  updated_at: string;
  version: number;
}

/**
 * An offer: its fields with `_id` = id. `pending_of` marks a reissue in flight: the old offer's
 * id, until that offer's closure names this one (readers ignore it before).
 */
export type OfferDoc = Omit<BillingOffer, "id"> & { _id: string; pending_of?: string };

/**
 * That an offer left `open`: `_id` = the offer's id, so of concurrent transitions exactly one
 * inserts (ADR 005). The offer document is written after it; readers trust the closure.
 */
export interface OfferClosureDoc {
  _id: string;
  workspace_id: string;
  status: "accepted" | "cancelled" | "superseded";
  at: string;
  superseded_by: string | null;
  /** Set on an acceptance (in its insert) until the offer's effects are applied, then unset. */
  effects_pending?: true;
}

/**
 * A contract's next included grant: `_id` `<workspace_id>|<contract_started_at>|<due_at>`.
 * Written by insert (a repeat is a duplicate key, harmless) and removed by delete (atomic on
 * FerretDB, ADR 005); never updated, so no write can resurrect a replaced contract.
 */
export interface GrantDueDoc {
  _id: string;
  workspace_id: string;
  contract_started_at: string;
  due_at: string;
}

/** A workspace's contract: `_id` = workspace id. */
export type ContractDoc = Contract & { _id: string };

/** Billing's collections of one database (their indexes: indexes.ts). */
export interface BillingCollections {
  planSlots: Collection<PlanSlotDoc>;
  planSeeds: Collection<PlanSeedDoc>;
  billingAccounts: Collection<BillingAccountDoc>;
  offers: Collection<OfferDoc>;
  offerClosures: Collection<OfferClosureDoc>;
  contracts: Collection<ContractDoc>;
  grantDues: Collection<GrantDueDoc>;
}

export const BILLING_COLLECTION_NAMES = {
  planSlots: "plan_slots",
  planSeeds: "plan_seeds",
  billingAccounts: "billing_accounts",
  offers: "billing_offers",
  offerClosures: "billing_offer_closures",
  contracts: "billing_contracts",
  grantDues: "billing_grant_dues",
} as const;

export function billingCollections(db: Db): BillingCollections {
  return {
    planSlots: db.collection<PlanSlotDoc>(BILLING_COLLECTION_NAMES.planSlots),
    planSeeds: db.collection<PlanSeedDoc>(BILLING_COLLECTION_NAMES.planSeeds),
    billingAccounts: db.collection<BillingAccountDoc>(BILLING_COLLECTION_NAMES.billingAccounts),
    offers: db.collection<OfferDoc>(BILLING_COLLECTION_NAMES.offers),
    offerClosures: db.collection<OfferClosureDoc>(BILLING_COLLECTION_NAMES.offerClosures),
    contracts: db.collection<ContractDoc>(BILLING_COLLECTION_NAMES.contracts),
    grantDues: db.collection<GrantDueDoc>(BILLING_COLLECTION_NAMES.grantDues),
  };
}
