import type { IndexDescription } from "mongodb";
import type { RADAR_COLLECTION_NAMES } from "./collections.ts";

/**
 * Radar's indexes, by collection. Three exceptions to the tenancy rule (../indexes.ts), each for a
 * sweep across workspaces: runs a worker may take over, monitors that are due, and unlock holds
 * whose lease ended (ADR 055).
 * `monitorById` (the signed webhook) goes by `_id`.
 */
export const RADAR_INDEXES: Record<keyof typeof RADAR_COLLECTION_NAMES, IndexDescription[]> = {
  radarSearches: [{ key: { workspace_id: 1, _id: 1 }, name: "workspace_id" }],
  radarRuns: [
    { key: { workspace_id: 1, _id: 1 }, name: "workspace_id" },
    { key: { state: 1, updated_at: 1 }, name: "state_updated" },
  ],
  radarMonitors: [
    { key: { workspace_id: 1, search_id: 1 }, name: "workspace_search_unique", unique: true },
    { key: { state: 1, next_run_at: 1 }, name: "state_next_run" },
  ],
  // `_id` `<id>:<version>` is the lock; this one serves the purge.
  radarVersions: [{ key: { workspace_id: 1, of: 1 }, name: "workspace_of" }],
  radarSteps: [{ key: { workspace_id: 1, run_id: 1, seq: 1 }, name: "workspace_run_seq_unique", unique: true }],
  radarResults: [
    { key: { workspace_id: 1, run_id: 1, position: 1 }, name: "workspace_run_position" },
    { key: { workspace_id: 1, run_id: 1, outcome: 1 }, name: "workspace_run_outcome" },
  ],
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
