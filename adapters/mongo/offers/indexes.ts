import type { IndexDescription } from "mongodb";
import type { OFFER_COLLECTION_NAMES } from "./collections.ts";

/** Offers' indexes, by collection (the tenancy rule: ../indexes.ts). */
export const OFFER_INDEXES: Record<keyof typeof OFFER_COLLECTION_NAMES, IndexDescription[]> = {
  offers: [
    // A workspace's offers, newest first; and its purge.
    { key: { workspace_id: 1, created_at: -1, _id: -1 }, name: "workspace_created" },
    // Exception to the tenancy rule: the platform operator lists every workspace's offers.
    { key: { created_at: -1, _id: -1 }, name: "created" },
  ],
  // `_id` (the offer's id) is the compare-and-set; this one serves the purge.
  // The second is an exception to the tenancy rule: the recovery of accepted offers' pending
  // effects reads across workspaces (few documents carry the field).
  offerClosures: [{ key: { workspace_id: 1 }, name: "workspace" }, { key: { effects_pending: 1, at: 1 }, name: "effects_pending_at" }],
  contracts: [{ key: { workspace_id: 1 }, name: "workspace" }],
  // A workspace's dues (its purge and replacement); and, an exception to the tenancy rule, the
  // sweep's read of every due grant, soonest first.
  grantDues: [{ key: { workspace_id: 1, due_at: 1 }, name: "workspace_due" }, { key: { due_at: 1 }, name: "due" }],
};
