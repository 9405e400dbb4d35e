import type { IndexDescription } from "mongodb";
import type { ACCESS_COLLECTION_NAMES } from "./collections.ts";

/** Access's indexes, by collection (the tenancy rule and its exceptions: ../indexes.ts). */
export const ACCESS_INDEXES: Record<keyof typeof ACCESS_COLLECTION_NAMES, IndexDescription[]> = {
  apiKeys: [
    // A workspace's keys in key order (transfer reads, the workspace export).
    { key: { workspace_id: 1, _id: 1 }, name: "workspace_id_key" },
    // Exception to the tenancy rule: authentication starts from the raw key alone, before any
    // workspace is known, so the hash must be found in one lookup across all workspaces. A
    // SHA-256 of 200 random bits cannot collide between tenants in practice; the unique index
    // makes that a guarantee. (Sharded, the hash lookup moves to an unsharded lookup collection.)
    { key: { key_hash: 1 }, name: "key_hash_unique", unique: true },
    // Lists, newest first, of the whole workspace ...
    { key: { workspace_id: 1, created_at: -1, _id: -1 }, name: "workspace_created" },
    // ... or of one identity's keys (and service keys: identity_id null); a member's keys on removal.
    { key: { workspace_id: 1, identity_id: 1, created_at: -1, _id: -1 }, name: "workspace_identity_created" },
  ],
};
