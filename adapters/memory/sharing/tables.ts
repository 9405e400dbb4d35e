import type { NoteShare, ShareLink } from "../../../core/sharing/model.ts";

/** The in-memory tables of sharing (the adapter's composition shares one object of every module's tables). */
export class SharingTables {
  /** `${workspace_id}:${topic_id}` → the topic's one active share link. */
  shareLinks = new Map<string, ShareLink>();
  /** token hash → key of `shareLinks`. */
  shareLinkKeyByHash = new Map<string, string>();
  noteShares = new Map<string, NoteShare>();
}
