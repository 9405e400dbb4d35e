import type { Collection, Db } from "mongodb";
import type { NoteShareDoc, ShareLinkDoc } from "./documents.ts";

/** Sharing's collections of one database (their indexes: indexes.ts). */
export interface SharingCollections {
  shareLinks: Collection<ShareLinkDoc>;
  noteShares: Collection<NoteShareDoc>;
}

export const SHARING_COLLECTION_NAMES = {
  shareLinks: "share_links",
  noteShares: "note_shares",
} as const;

export function sharingCollections(db: Db): SharingCollections {
  return {
    shareLinks: db.collection<ShareLinkDoc>(SHARING_COLLECTION_NAMES.shareLinks),
    noteShares: db.collection<NoteShareDoc>(SHARING_COLLECTION_NAMES.noteShares),
  };
}
