import type { IndexDescription } from "mongodb";
import type { BILLING_COLLECTION_NAMES } from "./collections.ts";

/** Billing's indexes, by collection (the tenancy rule: ../indexes.ts). */
export const BILLING_INDEXES: Record<keyof typeof BILLING_COLLECTION_NAMES, IndexDescription[]> = {
  // `_id` (`<workspace>:<kind>:<n>`) is the lock: a slot number is taken once. This one serves
  // counts, the highest slots a release frees, and the purge.
  planSlots: [{ key: { workspace_id: 1, kind: 1, n: 1 }, name: "workspace_kind_n_unique", unique: true }],
  planSeeds: [{ key: { workspace_id: 1, kind: 1 }, name: "workspace_kind" }],
  // `_id` (`<workspace>:<version>`) is the compare-and-set; this one finds the newest version.
  // `customer_id` serves the invoice events, which name the customer only (like api_keys.key_hash,
  // an index that does not start with workspace_id).
  billingAccounts: [
    { key: { workspace_id: 1, version: -1 }, name: "workspace_version_unique", unique: true },
    { key: { customer_id: 1 }, name: "customer" },
  ],
};
