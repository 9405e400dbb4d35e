import type { IndexDescription } from "mongodb";
import type { SHARING_COLLECTION_NAMES } from "./collections.ts";

/** Sharing's indexes, by collection (the tenancy rule and its exceptions: ../indexes.ts). */
export const SHARING_INDEXES: Record<keyof typeof SHARING_COLLECTION_NAMES, IndexDescription[]> = {
  shareLinks: [
    // Exception to the tenancy rule: the public page finds its link from the token alone (like
    // api_keys.key_hash). `_id` is `<workspace_id>:<topic_id>`: one link per topic.
    { key: { token_hash: 1 }, name: "token_hash_unique", unique: true },
    // The workspace's links on its deletion.
    { key: { workspace_id: 1, topic_id: 1 }, name: "workspace_topic" },
  ],
  noteShares: [
    // A member's inbox, newest first; its read-all; the member's entries on removal.
    { key: { workspace_id: 1, recipient_member_id: 1, created_at: -1, _id: -1 }, name: "workspace_recipient_created" },
    // A topic's entries on its deletion.
    { key: { workspace_id: 1, topic_id: 1 }, name: "workspace_topic" },
  ],
};
