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

/** Billing's collections of one database (their indexes: indexes.ts). */
export interface BillingCollections {
  planSlots: Collection<PlanSlotDoc>;
  planSeeds: Collection<PlanSeedDoc>;
}

export const BILLING_COLLECTION_NAMES = {
  planSlots: "plan_slots",
  planSeeds: "plan_seeds",
} as const;

export function billingCollections(db: Db): BillingCollections {
  return {
    planSlots: db.collection<PlanSlotDoc>(BILLING_COLLECTION_NAMES.planSlots),
    planSeeds: db.collection<PlanSeedDoc>(BILLING_COLLECTION_NAMES.planSeeds),
  };
}
