import { SHARING_TRANSFER_KINDS as K } from "../../../core/sharing/transfer.ts";
import type { NoteShare, ShareLink } from "../../../core/sharing/model.ts";
import type { TransferKind } from "../../../core/kernel/store-transfer.ts";
import { asTransferDoc, memoryTenantKind } from "../topics/mod.ts";
import type { SharingTables } from "./tables.ts";

/** Sharing's kinds over the memory tables (core/sharing/transfer.ts). */
export function memorySharingTransfer(t: SharingTables): TransferKind[] {
  return [
    memoryTenantKind(K.shareLinks, () => [...t.shareLinks.values()].map(asTransferDoc), (d) => {
      const link = d as unknown as ShareLink;
      const key = `${link.workspace_id}:${link.topic_id}`;
      if (t.shareLinks.has(key) || t.shareLinkKeyByHash.has(link.token_hash)) return false;
      t.shareLinks.set(key, link);
      t.shareLinkKeyByHash.set(link.token_hash, key);
      return true;
    }),
    memoryTenantKind(K.noteShares, () => [...t.noteShares.values()].map(asTransferDoc), (d) => {
      const s = d as unknown as NoteShare;
      if (t.noteShares.has(s.id)) return false;
      t.noteShares.set(s.id, s);
      return true;
    }),
  ];
}
