import type { SharingTables } from "./tables.ts";
import { dropLink } from "./share-link-store.ts";
import { inWorkspace } from "../rows.ts";

/** Called where a topic is deleted: its link and the inbox entries sharing it go with it. */
export function dropTopicShares(t: SharingTables, workspaceId: string, topicId: string): void {
  dropLink(t, workspaceId, topicId);
  for (const s of inWorkspace(t.noteShares, workspaceId)) if (s.topic_id === topicId) t.noteShares.delete(s.id);
}

/** Called where a member is removed: their inbox goes with the membership. */
export function dropMemberInbox(t: SharingTables, workspaceId: string, memberId: string): void {
  for (const s of inWorkspace(t.noteShares, workspaceId)) if (s.recipient_member_id === memberId) t.noteShares.delete(s.id);
}

/** Called where a workspace is deleted. */
export function dropWorkspaceShares(t: SharingTables, workspaceId: string): void {
  for (const link of inWorkspace(t.shareLinks, workspaceId)) dropLink(t, workspaceId, link.topic_id);
  for (const s of inWorkspace(t.noteShares, workspaceId)) t.noteShares.delete(s.id);
}
