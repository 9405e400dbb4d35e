import type { IndexDescription } from "mongodb";
import type { CONTACT_COLLECTION_NAMES } from "./collections.ts";

/**
 * Contacts' indexes, by collection. One exception to the tenancy rule (../indexes.ts), for a sweep
 * across workspaces: unlock holds whose lease ended (ADR 055).
 */
export const CONTACT_INDEXES: Record<keyof typeof CONTACT_COLLECTION_NAMES, IndexDescription[]> = {
  // `_id` is the claim's key; these serve the unlocks of some entities and the purge, and what
  // one request's token settled (its finish captures their credits).
  radarUnlocks: [
    { key: { workspace_id: 1, entity_id: 1 }, name: "workspace_entity" },
    { key: { workspace_id: 1, token: 1 }, name: "workspace_token" },
  ],
  // `_id` `<workspace_id>:<token>` is each one's key; the leases by their end serve the sweep
  // (a lease lives from an unlock's begin to its finish, so the index holds the holds in flight).
  radarUnlockLeases: [
    { key: { lease_until: 1 }, name: "lease_until" },
    { key: { workspace_id: 1, _id: 1 }, name: "workspace_id" },
  ],
  radarUnlockEnds: [{ key: { workspace_id: 1, _id: 1 }, name: "workspace_id" }],
};
