import type { IndexDescription } from "mongodb";
import type { CODE_CONTEXT_COLLECTION_NAMES } from "./collections.ts";

/** Code context's indexes, by collection (the tenancy rule and its exceptions: ../indexes.ts). */
export const CODE_CONTEXT_INDEXES: Record<keyof typeof CODE_CONTEXT_COLLECTION_NAMES, IndexDescription[]> = {
  // `_id` is the repo id (one index per repo, read with its workspace_id); the workspace's on its deletion.
  repoIndexes: [{ key: { workspace_id: 1, _id: 1 }, name: "workspace_id" }],
  // Forgetting a workspace's old deliveries (lookups go by _id).
  retrievalDeliveries: [
    { key: { workspace_id: 1, delivered_at: 1 }, name: "workspace_delivered_at" },
    // A store copy reads them in key order (core/code-context/transfer.ts).
    { key: { workspace_id: 1, session_id: 1, topic_id: 1 }, name: "workspace_session_topic" },
  ],
};
