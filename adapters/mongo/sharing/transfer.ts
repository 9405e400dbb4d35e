import { SHARING_TRANSFER_KINDS as K } from "../../../core/sharing/transfer.ts";
import type { NoteShare, ShareLink } from "../../../core/sharing/model.ts";
import type { TransferDoc, TransferKind } from "../../../core/kernel/store-transfer.ts";
import { mongoTenantKind } from "../topics/mod.ts";
import type { SharingCollections } from "./collections.ts";
import { noteShareDoc, shareLinkDoc, toNoteShare, toShareLink } from "./documents.ts";

const asDoc = <T>(v: T) => v as unknown as TransferDoc;

/** Sharing's kinds on MongoDB (core/sharing/transfer.ts); a token hash another link holds (unique) is skipped. */
export function mongoSharingTransfer(c: SharingCollections): TransferKind[] {
  return [
    mongoTenantKind(K.shareLinks, c.shareLinks, {
      sort: { _id: 1 },
      toDoc: (d) => asDoc(toShareLink(d)),
      stored: (d) => shareLinkDoc(d as unknown as ShareLink),
    }),
    mongoTenantKind(K.noteShares, c.noteShares, {
      sort: { _id: 1 },
      toDoc: (d) => asDoc(toNoteShare(d)),
      stored: (d) => noteShareDoc(d as unknown as NoteShare),
    }),
  ];
}
