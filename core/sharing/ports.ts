import type { Topic, TopicStores } from "../topics/mod.ts";
import type { Listed, Workspace, WorkspaceStores } from "../workspaces/mod.ts";
import type { CoreDeps } from "../kernel/deps.ts";
import type { OffsetPage } from "../kernel/paging.ts";
import type { NoteShare, ShareLink, TopicBrief } from "./model.ts";

/**
 * Store ports of sharing. Absence is `null`, `false` or `[]`; expected refusals are returned
 * strings. Each method is atomic on its own. Links and inbox entries go with their topic (a
 * topic's deletion removes them) and with their workspace.
 */

/** What a token opens: the link, its workspace and the topic as it is now. */
export interface ShareMatch {
  link: ShareLink;
  workspace: Workspace;
  topic: Topic;
}

export interface ShareLinkStore {
  /**
   * Makes `link` the topic's one active link: any link the topic had stops resolving. Of
   * concurrent calls for one topic, exactly one link stays active. "not_found" when the topic
   * does not exist (nothing is stored).
   */
  issue(link: ShareLink): Promise<"ok" | "not_found">;
  /** The topic's active link. */
  get(workspaceId: string, topicId: string): Promise<ShareLink | null>;
  /** Revokes the topic's active link: its token stops resolving before this returns. False when none. */
  revoke(workspaceId: string, topicId: string): Promise<boolean>;
  /**
   * The active link whose token hashes to `tokenHash`, with its workspace and topic. The lookup
   * starts from the hash alone (no workspace is known yet), so the hash is unique across tenants.
   */
  findByHash(tokenHash: string): Promise<ShareMatch | null>;
}

export interface InboxFilter {
  /** true: unread only; false: read only; undefined: both. */
  unread?: boolean;
}

/** An inbox entry with the topic it shares. */
export interface InboxItem {
  share: NoteShare;
  topic: TopicBrief;
}

export interface NoteShareStore {
  /**
   * Stores the shares (one per recipient) in one go. A share whose recipient stopped being a
   * member meanwhile may be dropped, as if the membership's removal had come just after.
   */
  insert(shares: NoteShare[]): Promise<void>;
  /** One member's inbox, newest first (`created_at`, then `id`). */
  inbox(workspaceId: string, recipientMemberId: string, filter: InboxFilter, page: OffsetPage): Promise<Listed<InboxItem>>;
  /**
   * Marks the recipient's share read at `at` (an entry read already keeps its first `read_at`).
   * Null when no share with that id is in this member's inbox.
   */
  markRead(workspaceId: string, recipientMemberId: string, shareId: string, at: string): Promise<InboxItem | null>;
  /** Marks every unread share of the member's inbox read at `at`; returns how many. */
  markAllRead(workspaceId: string, recipientMemberId: string, at: string): Promise<number>;
}

/** Sharing's stores, one bundle per adapter (adapters/<adapter>/sharing/). */
export interface SharingStores {
  shareLinks: ShareLinkStore;
  noteShares: NoteShareStore;
}

/** What Sharing's use cases are given: its own stores and those of other modules it reads (ADR 019). */
/**
 * What follows sharing a note with members (`mailHooks` of core/mail/mod.ts: "note shared with
 * you" mail). A port, so sharing need not import mail; it must not fail the use case.
 */
export type NoteSharedHook = (
  deps: CoreDeps<unknown>,
  ws: Workspace,
  actorIdentityId: string | null,
  topic: { slug: string; title: string },
  shares: NoteShare[],
) => Promise<void>;

export type SharingDeps = CoreDeps<SharingStores & TopicStores & WorkspaceStores> & {
  /** What follows sharing a note with members (`mailHooks`: "note shared with you" mail); without it, nothing. */
  onNoteShared?: NoteSharedHook;
};
