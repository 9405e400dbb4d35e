import type { IndexDescription } from "mongodb";
import type { RADAR_COLLECTION_NAMES } from "./collections.ts";

/**
 * Radar's indexes, by collection. Two exceptions to the tenancy rule (../indexes.ts), each for a
 * sweep across workspaces: runs a worker may take over, and monitors that are due.
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
    // The results in their key's order, as a store copy or export reads them (ADR 072).
    { key: { workspace_id: 1, run_id: 1, provider_id: 1 }, name: "workspace_run_provider" },
  ],
};
