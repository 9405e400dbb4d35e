import type { IndexDescription } from "mongodb";
import type { WORKSPACE_COLLECTION_NAMES } from "./collections.ts";

/** Workspaces' indexes, by collection (the tenancy rule and its exceptions: ../indexes.ts). */
export const WORKSPACE_INDEXES: Record<keyof typeof WORKSPACE_COLLECTION_NAMES, IndexDescription[]> = {
  workspaces: [{ key: { slug: 1 }, name: "slug_unique", unique: true }],
  identities: [{ key: { email: 1 }, name: "email_unique", unique: true }],
  members: [
    // A workspace's objects in key order (transfer reads, the workspace export).
    { key: { workspace_id: 1, _id: 1 }, name: "workspace_id_key" },
    { key: { workspace_id: 1, identity_id: 1 }, name: "workspace_identity_unique", unique: true },
    // Lists, oldest first; the workspace's members on deletion.
    { key: { workspace_id: 1, created_at: 1, _id: 1 }, name: "workspace_created" },
    // Members marked owner but not yet listed in the roster's owner_ids (the last-owner check).
    { key: { workspace_id: 1, role: 1 }, name: "workspace_role" },
    // Exception to the tenancy rule: "which workspaces is this person in" (GET /me,
    // IdentityStore.memberships) asks across workspaces by identity. Sharded, it is a fan-out
    // served by this index on every shard.
    { key: { identity_id: 1, created_at: 1, _id: 1 }, name: "identity_created" },
  ],
  areas: [
    // A workspace's objects in key order (transfer reads, the workspace export).
    { key: { workspace_id: 1, _id: 1 }, name: "workspace_id_key" },
    { key: { workspace_id: 1, name: 1 }, name: "workspace_name_unique", unique: true },
    { key: { workspace_id: 1, created_at: 1, _id: 1 }, name: "workspace_created" },
  ],
  repos: [
    // A workspace's objects in key order (transfer reads, the workspace export).
    { key: { workspace_id: 1, _id: 1 }, name: "workspace_id_key" },
    { key: { workspace_id: 1, provider: 1, full_name: 1 }, name: "workspace_provider_full_name_unique", unique: true },
    { key: { workspace_id: 1, created_at: 1, _id: 1 }, name: "workspace_created" },
    // Exception to the tenancy rule: the code-host webhook names a repository (`acme/api`), not a
    // workspace, and finds every workspace linking it (RepoStore.findByFullName).
    { key: { full_name: 1, created_at: 1, _id: 1 }, name: "full_name_created" },
  ],
  rosters: [
    // The compare-and-set of roster changes: one writer inserts version v+1 (roster.ts); and the
    // newest version, by the same index read backwards.
    { key: { workspace_id: 1, v: -1 }, name: "workspace_version_unique", unique: true },
  ],
};
