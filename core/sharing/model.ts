import type { TopicStatus } from "../topics/mod.ts";

/** What the sharing module keeps: public links and inbox entries, as stored. What crosses the API is in dto.ts. */

export const MAX_SHARE_RECIPIENTS = 50;
export const MAX_SHARE_MESSAGE_LENGTH = 2000;

/**
 * A public read-only link to one topic. Only the SHA-256 of its token is stored, so a leaked
 * database gives no working link. A topic has at most one active link.
 */
export interface ShareLink {
  id: string;
  workspace_id: string;
  topic_id: string;
  /** SHA-256 of the raw token, lowercase hex. */
  token_hash: string;
  /** Identity id of who issued it; null for a faceless key. */
  created_by: string | null;
  created_at: string;
}

/** A note put in a member's inbox. */
export interface NoteShare {
  id: string;
  workspace_id: string;
  topic_id: string;
  recipient_member_id: string;
  /** Identity id of the sender; null for a faceless key. */
  sender_id: string | null;
  message: string | null;
  created_at: string;
  read_at: string | null;
}

/** What an inbox shows of the shared topic, as the store reads it (no body). */
export interface TopicBrief {
  id: string;
  slug: string;
  title: string;
  status: TopicStatus;
  approved_at: string | null;
  drifted: boolean;
}
