import type { Collection, Db } from "mongodb";

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

/** Billing's collections of one database (their indexes: indexes.ts). */
export interface BillingCollections {
  planSlots: Collection<PlanSlotDoc>;
  planSeeds: Collection<PlanSeedDoc>;
  billingAccounts: Collection<BillingAccountDoc>;
}

export const BILLING_COLLECTION_NAMES = {
  planSlots: "plan_slots",
  planSeeds: "plan_seeds",
  billingAccounts: "billing_accounts",
} as const;

export function billingCollections(db: Db): BillingCollections {
  return {
    planSlots: db.collection<PlanSlotDoc>(BILLING_COLLECTION_NAMES.planSlots),
    planSeeds: db.collection<PlanSeedDoc>(BILLING_COLLECTION_NAMES.planSeeds),
    billingAccounts: db.collection<BillingAccountDoc>(BILLING_COLLECTION_NAMES.billingAccounts),
  };
}
