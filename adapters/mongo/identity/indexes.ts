import type { IndexDescription } from "mongodb";
import type { IDENTITY_COLLECTION_NAMES } from "./collections.ts";

/**
 * Identity's indexes, by collection (the tenancy rule and its exceptions: ../indexes.ts). Codes,
 * claims and tokens are found by `_id` (their hash); clients, sessions and links are global.
 */
export const IDENTITY_INDEXES: Record<keyof typeof IDENTITY_COLLECTION_NAMES, IndexDescription[]> = {
  oauthClients: [],
  // The workspace's purge.
  oauthCodes: [{ key: { workspace_id: 1, expires_at: 1 }, name: "workspace_expires" }],
  oauthClaims: [{ key: { workspace_id: 1, at: 1 }, name: "workspace_at" }],
  oauthGrantUses: [{ key: { workspace_id: 1 }, name: "workspace" }],
  oauthTokens: [{ key: { workspace_id: 1, grant_id: 1 }, name: "workspace_grant" }],
  oauthGrants: [
    // Live grants newest first: the workspace's, or one person's there.
    { key: { workspace_id: 1, revoked_at: 1, _id: -1 }, name: "workspace_live_id" },
    { key: { workspace_id: 1, identity_id: 1, revoked_at: 1, _id: -1 }, name: "workspace_person_live_id" },
    // A person's grants in every workspace (deactivation): the one grant index without workspace_id.
    { key: { identity_id: 1, revoked_at: 1 }, name: "person_live" },
  ],
  authSessions: [{ key: { identity_id: 1 }, name: "identity" }],
  // A person has one link per provider.
  // A person has one link per provider; the transfer reads links in (issuer, subject) order.
  identityLinks: [
    { key: { issuer: 1, identity_id: 1 }, name: "issuer_identity_unique", unique: true },
    { key: { issuer: 1, subject: 1 }, name: "issuer_subject" },
  ],
};
